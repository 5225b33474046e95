// Not through core/index.ts, like en.ts: a catalogue must not wait for the core's chunk.
import { userMessage } from '../../core/error-messages.ts'
import type { AppError } from '../../core/errors.ts'
import type { NoticeTable } from '../../core/notices.ts'
import type { BootMessages } from './en.ts'

/**
 * Farsi, written right to left (the page's dir is rtl; catalogues.ts isolates each value set into a
 * text). Figures stay in Latin digits, as amounts are everywhere in the app: Telegram's Farsi users
 * read wallet apps' amounts, addresses and prices in Latin digits, and one digit set keeps an amount
 * the same wherever it is copied. AXIOM, GRAM and TON are kept in Latin letters. The first screens'
 * texts; the other screens' are in fa-screens.ts, a chunk of their own: the two types require every
 * English key.
 */
export const fa: BootMessages = {
  'mint.paymentSeen': 'پرداخت دیده شد',
  'app.name': 'AXIOM',
  'common.loading': 'در حال بارگذاری…',
  'common.close': 'بستن',
  'common.cancel': 'لغو',
  'common.notFound': 'این صفحه وجود ندارد',
  'common.toDashboard': 'رفتن به خانه',

  'nav.label': 'پیمایش اصلی',
  'nav.bond': 'باند AXIOM',
  'nav.staking': 'استیکینگ',
  'nav.dashboard': 'خانه',
  'nav.referral': 'دعوت',
  'nav.tasks': 'مأموریت‌ها',
  'nav.invite': 'دعوت دوستان',
  'nav.copyLink': 'کپی لینک دعوت',
  'toast.region': 'اعلان‌ها',
  'toast.dismiss': 'بستن',

  'loader.label': 'در حال بارگذاری AXIOM',
  'maintenance.title': 'در حال به‌روزرسانی هستیم',
  'maintenance.body': 'کمی بعد دوباره سر بزنید',
  'failed.title': 'مشکلی پیش آمد',
  'failed.body': 'AXIOM بارگذاری نشد. اتصال خود را بررسی کنید و دوباره تلاش کنید.',
  'failed.retry': 'تلاش دوباره',
  'outside.title': 'AXIOM را در تلگرام باز کنید',
  'outside.body': 'AXIOM یک مینی‌اپ تلگرام است. در حال رفتن به ربات…',
  'outside.open': 'باز کردن ربات',
  'manifest.opening': 'در حال باز کردن مانیفست…',

  'community.title': 'برای استفاده از AXIOM به جامعه بپیوندید',
  'community.join': 'پیوستن به جامعه',
  'community.done': 'انجام شد',

  'balance.main': 'موجودی اصلی',
  'balance.referral': 'موجودی دعوت',
  'balance.task': 'موجودی مأموریت',
  'dashboard.earnedToday': 'درآمد امروز',
  'dashboard.price': 'قیمت AXIOM',
  'dashboard.change24h': '24س',
  'dashboard.change30d': '30ر',
  'dashboard.chart': 'نمودار قیمت',
  'dashboard.interval': 'بازه نمودار',
  'dashboard.chartEmpty': 'هنوز داده قیمتی نیست',
  'dashboard.chartCredit': 'نمودار از TradingView',
  'dashboard.history': 'تاریخچه',
  'dashboard.rebond': 'باند مجدد',
  'dashboard.sell': 'فروش',
  'dashboard.interval.5m': '5د',
  'dashboard.interval.30m': '30د',
  'dashboard.interval.1h': '1س',
  'dashboard.interval.4h': '4س',
  'dashboard.interval.1d': '1ر',

  // آخرین داشبورد، نگه‌داشته روی دستگاه و نشان‌داده پیش از ورود، با عمرش.
  'dashboard.kept.s': '{n} ثانیه پیش به‌روز شد',
  'dashboard.kept.min': '{n} دقیقه پیش به‌روز شد',
  'dashboard.kept.h': '{n} ساعت پیش به‌روز شد',
  'dashboard.kept.d': '{n} روز پیش به‌روز شد',

  'wallet.label': 'کیف پول {address}',
  'wallet.disconnectTitle': 'اتصال کیف پول قطع شود؟',
  'wallet.disconnectBody': 'اتصال کیف پول {address} قطع می‌شود. هر زمان بخواهید می‌توانید دوباره وصلش کنید.',
  'wallet.disconnect': 'قطع اتصال',

  'community.about': 'جامعه AXIOM گروه تلگرامی ماست: خبرها، شرایط تازه باندها و پاسخ‌های تیم.',
  'community.why': 'AXIOM برای اعضای آن است: با پیوستن، برنامه می‌داند که شما یک انسان واقعی هستید، و رایگان است.',
  'community.next': 'پیوستید؟ برای ادامه «انجام شد» را بزنید.',
  'dashboard.welcomePart': 'از این مقدار، {amount} AXIOM توکن خوش‌آمد است: فقط برای باند، فروختنی نیست.',
  'dashboard.earnedTodayAmount': '+{amount} AXIOM',
}

type ErrorWords = { readonly [K in AppError['_tag']]?: (e: Extract<AppError, { _tag: K }>) => string }

/** Farsi for the §8 errors; a server's own message keeps its words. The rest read in English. */
const FA_ERRORS: ErrorWords = {
  ServerFailed: (e) => `خطا: ${e.msg}`,
  RequestRejected: (e) => `خطا: ${e.msg}`,
  InvalidInput: (e) => `خطا: ${e.msg}`,
  UnderMaintenance: () => 'خطا: در حال به‌روزرسانی هستیم',
  TooManyRequests: (e) => `خطا: ${e.msg}`,
  PayloadTooLarge: () => 'خطا: حجم فایل زیاد است! فایل کوچک‌تری بفرستید.',
  NetworkError: () => 'خطا: شبکه در دسترس نیست! کد: ERR_NETWORK',
  Timeout: () => 'خطا: زمان انتظار تمام شد!',
  MalformedResponse: () => 'خطا: پاسخ غیرمنتظره از سرور',
  WalletNotConnected: () => 'کیف پول وصل نشد',
  WalletConnectionDeclined: () => 'کیف پول وصل نشد',
  TransactionNotSent: () => 'تراکنش ارسال نشد',
  WalletNotConnectedToDisconnect: () => 'کیف پول وصل نیست',
  WalletRestoreFailed: () => 'اتصال بازیابی نشد',
  WalletBoundElsewhere: () => 'این کیف پول به حساب AXIOM دیگری متصل است، پس اتصالش قطع شد. کیف پول خودتان را وصل کنید.',
  WalletNotVerified: () => 'کیف پول نتوانست ثابت کند مال شماست، پس اتصالش قطع شد. دوباره وصلش کنید.',
  OutsidePlatform: () => 'AXIOM را داخل تلگرام باز کنید',
}

const faError = (e: AppError): string => (FA_ERRORS[e._tag] as ((e: AppError) => string) | undefined)?.(e) ?? userMessage(e)

/** Farsi notices (toasts). */
export const faNotices: NoticeTable = {
  error: (n) => faError(n.error),
  bondCreated: (n) => (n.viaFarming ? 'باند جدید با فارمینگ ساخته شد' : 'باند جدید ساخته شد'),
  stakeCreated: () => 'استیک جدید ساخته شد',
  transactionProcessing: () => 'تراکنش در حال پردازش است',
  sold: () => 'سفارش فروش ثبت شد',
  transferred: () => 'به موجودی اصلی منتقل شد',
  copied: (n) => (n.what === 'referralLink' ? 'لینک دعوت کپی شد' : 'در کلیپ‌بورد کپی شد'),
  copyFailed: () => 'کپی نشد. متن را انتخاب کنید و دستی کپی کنید.',
}
