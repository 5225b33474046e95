// Not through core/index.ts, like en.ts: a catalogue must not wait for the core's chunk.
import { userMessage } from '../../core/error-messages.ts'
import type { AppError } from '../../core/errors.ts'
import type { NoticeTable } from '../../core/notices.ts'
import type { BootMessages } from './en.ts'

/** Ukrainian, the first screens' texts (the other screens' are in uk-screens.ts, a chunk of their own): the two types require every English key. */
export const uk: BootMessages = {
  'mint.paymentSeen': 'Платіж помічено',
  'app.name': 'AXIOM',
  'common.loading': 'Завантаження…',
  'common.close': 'Закрити',
  'common.cancel': 'Скасувати',
  'common.notFound': 'Такої сторінки немає',
  'common.toDashboard': 'На головну',

  'nav.label': 'Основна навігація',
  'nav.bond': 'Бонд AXIOM',
  'nav.staking': 'Стейкінг',
  'nav.dashboard': 'Головна',
  'nav.referral': 'Реферали',
  'nav.tasks': 'Завдання',
  'nav.invite': 'Запросити друзів',
  'nav.copyLink': 'Скопіювати реферальне посилання',
  'toast.region': 'Сповіщення',
  'toast.dismiss': 'Сховати',

  'loader.label': 'AXIOM завантажується',
  'maintenance.title': 'Тривають технічні роботи',
  'maintenance.body': 'Зазирніть пізніше',
  'failed.title': 'Щось пішло не так',
  'failed.body': 'Не вдалося завантажити AXIOM. Перевірте з’єднання і спробуйте ще раз.',
  'failed.retry': 'Спробувати ще',
  'outside.title': 'Відкрийте AXIOM у Telegram',
  'outside.body': 'AXIOM — міні-застосунок Telegram. Переходимо до бота…',
  'outside.open': 'Відкрити бота',
  'manifest.opening': 'Відкриваємо маніфест…',

  'community.title': 'Вступіть до спільноти, щоб користуватися AXIOM',
  'community.join': 'Вступити до спільноти',
  'community.done': 'Готово',

  'balance.main': 'Основний баланс',
  'balance.referral': 'Реферальний баланс',
  'balance.task': 'Баланс завдань',
  'dashboard.earnedToday': 'Зароблено сьогодні',
  'dashboard.price': 'Ціна AXIOM',
  'dashboard.change24h': '24г',
  'dashboard.change30d': '30д',
  'dashboard.chart': 'Графік ціни',
  'dashboard.interval': 'Інтервал графіка',
  'dashboard.chartEmpty': 'Даних про ціну ще немає',
  'dashboard.chartCredit': 'Графік: TradingView',
  'dashboard.history': 'Історія',
  'dashboard.rebond': 'Ребондинг',
  'dashboard.sell': 'Продати',
  'dashboard.interval.5m': '5хв',
  'dashboard.interval.30m': '30хв',
  'dashboard.interval.1h': '1г',
  'dashboard.interval.4h': '4г',
  'dashboard.interval.1d': '1д',

  // Останній дашборд, збережений на пристрої й показаний до входу, з його віком.
  'dashboard.kept.s': 'Оновлено {n} с тому',
  'dashboard.kept.min': 'Оновлено {n} хв тому',
  'dashboard.kept.h': 'Оновлено {n} год тому',
  'dashboard.kept.d': 'Оновлено {n} дн. тому',

  'wallet.label': 'Гаманець {address}',
  'wallet.disconnectTitle': 'Відключити гаманець?',
  'wallet.disconnectBody': 'Гаманець {address} буде відключено. Підключити його знову можна будь-коли.',
  'wallet.disconnect': 'Відключити',

  'community.about': 'Спільнота AXIOM — наша група в Telegram: новини, нові умови бондів і відповіді команди.',
  'community.why': 'AXIOM — для учасників спільноти: так застосунок знає, що ви жива людина. Вступ безкоштовний.',
  'community.next': 'Вступили? Натисніть «Готово», щоб продовжити.',
  'dashboard.welcomePart': 'З них {amount} AXIOM — вітальні токени: лише для бондів, продати їх не можна.',
  'dashboard.earnedTodayAmount': '+{amount} AXIOM',
}

type ErrorWords = { readonly [K in AppError['_tag']]?: (e: Extract<AppError, { _tag: K }>) => string }

/** Ukrainian for the §8 errors; a server's own message keeps its words. The rest read in English. */
const UK_ERRORS: ErrorWords = {
  ServerFailed: (e) => `Помилка: ${e.msg}`,
  RequestRejected: (e) => `Помилка: ${e.msg}`,
  InvalidInput: (e) => `Помилка: ${e.msg}`,
  UnderMaintenance: () => 'Помилка: тривають технічні роботи',
  TooManyRequests: (e) => `Помилка: ${e.msg}`,
  PayloadTooLarge: () => 'Помилка: файл завеликий! Завантажте менший файл.',
  NetworkError: () => 'Помилка: мережа недоступна! Код: ERR_NETWORK',
  Timeout: () => 'Помилка: час очікування минув!',
  MalformedResponse: () => 'Помилка: неочікувана відповідь сервера',
  WalletNotConnected: () => 'Гаманець не підключено',
  WalletConnectionDeclined: () => 'Гаманець не підключено',
  TransactionNotSent: () => 'Транзакцію не надіслано',
  WalletNotConnectedToDisconnect: () => 'Гаманець не підключено',
  WalletRestoreFailed: () => 'З’єднання не відновлено',
  WalletBoundElsewhere: () => 'Цей гаманець прив’язаний до іншого акаунта AXIOM, тому його відключено. Підключіть свій гаманець.',
  WalletNotVerified: () => 'Гаманець не підтвердив, що він ваш, тому його відключено. Підключіть його знову.',
  OutsidePlatform: () => 'Відкрийте AXIOM у Telegram',
}

const ukError = (e: AppError): string => (UK_ERRORS[e._tag] as ((e: AppError) => string) | undefined)?.(e) ?? userMessage(e)

/** Ukrainian notices (toasts). */
export const ukNotices: NoticeTable = {
  error: (n) => ukError(n.error),
  bondCreated: (n) => (n.viaFarming ? 'Новий бонд створено через фармінг' : 'Новий бонд створено'),
  stakeCreated: () => 'Новий стейк створено',
  transactionProcessing: () => 'Транзакція обробляється',
  sold: () => 'Заявку на продаж створено',
  transferred: () => 'Переказано на основний баланс',
  copied: (n) => (n.what === 'referralLink' ? 'Реферальне посилання скопійовано' : 'Скопійовано в буфер обміну'),
  copyFailed: () => 'Не вдалося скопіювати. Виділіть текст і скопіюйте вручну.',
}
