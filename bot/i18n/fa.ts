import type { Words } from './words.ts'

/** The bot in Farsi (figures in Latin digits, as in the app). */
export const fa: Words = {
  start: 'به AXIOM خوش آمدید: باند، استیکینگ و پاداش AXIOM روی TON. برای شروع برنامه را باز کنید.',
  startWithParam: 'به AXIOM خوش آمدید! شما دعوت شده‌اید: برای پیوستن برنامه را باز کنید.',
  open: 'باز کردن AXIOM',
  menu: 'AXIOM',
  help: 'دستورها:\n/start – باز کردن برنامه AXIOM\n/balance – موجودی‌های شما\n/bonds – باندها و استیک‌های شما\n/notifications on|off – پیام درباره باندها، فروش‌ها و دوستان\n/help – همین فهرست',
  balance: (b) => `موجودی‌های شما\nموجودی اصلی: ${b.token} AXIOM\nموجودی مأموریت: ${b.task} AXIOM\nموجودی دعوت: ${b.referral} AXIOM`,
  noRecords: 'هنوز باند یا استیکی ندارید. برای خرید باند برنامه را باز کنید.',
  bond: 'باند',
  stake: 'استیک',
  reward: 'پاداش',
  notificationsOn: 'اعلان‌ها روشن است.',
  notificationsOff: 'اعلان‌ها خاموش است.',
  notificationsUsage: 'بنویسید /notifications on یا /notifications off.',
  unavailable: 'AXIOM الان در دسترس نیست. یک دقیقه دیگر دوباره تلاش کنید.',
  saleCancelled: (s) =>
    `فروش #${s.id} به ${s.address} لغو شد: چیزی ارسال نشد و ${s.token_amount} AXIOM به موجودی ${s.from_ref_balance ? 'دعوت' : 'اصلی'} شما برگشت.`,
  saleCancelledShort: 'فروش لغو شد: توکن‌های شما برگشت.',
  saleAlreadyCancelled: 'این فروش قبلاً لغو شده است.',
  saleNotWaiting: 'این فروش دیگر لغوشدنی نیست: زمان انتظارش تمام شده و در حال پرداخت است.',
  saleNotYours: 'این فروش مال شما نیست.',
  commands: { start: 'باز کردن برنامه AXIOM', balance: 'موجودی‌های شما', bonds: 'باندها و استیک‌های شما', notifications: 'روشن/خاموش کردن اعلان‌ها', help: 'ربات چه می‌کند' },
}
