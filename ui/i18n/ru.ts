// Not through core/index.ts, like en.ts: a Russian speaker's catalogue must not wait for the core's chunk.
import { userMessage } from '../../core/error-messages.ts'
import type { AppError } from '../../core/errors.ts'
import type { NoticeTable } from '../../core/notices.ts'
import type { BootMessages } from './en.ts'

/** Russian, the first screens' texts (the other screens' are in ru-screens.ts, a chunk of their own): the two types require every English key. */
export const ru: BootMessages = {
  // Бонд, платёж за который сеть уже показала (её поток), ещё не зачтён.
  'mint.paymentSeen': 'Платёж замечен',
  'app.name': 'AXIOM',
  'common.loading': 'Загрузка…',
  'common.close': 'Закрыть',
  'common.cancel': 'Отмена',
  'common.notFound': 'Такой страницы нет',
  'common.toDashboard': 'На главную',

  'nav.label': 'Основная навигация',
  'nav.bond': 'Бонд AXIOM',
  'nav.staking': 'Стейкинг',
  'nav.dashboard': 'Главная',
  'nav.referral': 'Рефералы',
  'nav.tasks': 'Задания',
  'nav.invite': 'Пригласить друзей',
  'nav.copyLink': 'Скопировать реферальную ссылку',
  'toast.region': 'Уведомления',
  'toast.dismiss': 'Скрыть',

  'loader.label': 'AXIOM загружается',
  'maintenance.title': 'Идут технические работы',
  'maintenance.body': 'Загляните позже',
  'failed.title': 'Что-то пошло не так',
  'failed.body': 'Не удалось загрузить AXIOM. Проверьте подключение и попробуйте снова.',
  'failed.retry': 'Попробовать снова',
  'outside.title': 'Откройте AXIOM в Telegram',
  'outside.body': 'AXIOM — мини-приложение Telegram. Переходим к боту…',
  'outside.open': 'Открыть бота',
  'manifest.opening': 'Открываем манифест…',

  'community.title': 'Вступите в сообщество, чтобы пользоваться AXIOM',
  'community.join': 'Вступить в сообщество',
  'community.done': 'Готово',

  'balance.main': 'Основной баланс',
  'balance.referral': 'Реферальный баланс',
  'balance.task': 'Баланс заданий',
  'dashboard.earnedToday': 'Заработано сегодня',
  'dashboard.price': 'Цена AXIOM',
  'dashboard.change24h': '24ч',
  'dashboard.change30d': '30д',
  'dashboard.chart': 'График цены',
  'dashboard.interval': 'Интервал графика',
  'dashboard.chartEmpty': 'Данных о цене пока нет',
  'dashboard.chartCredit': 'График: TradingView',
  'dashboard.history': 'История',
  'dashboard.rebond': 'Ребондинг',
  'dashboard.sell': 'Продать',
  'dashboard.interval.5m': '5м',
  'dashboard.interval.30m': '30м',
  'dashboard.interval.1h': '1ч',
  'dashboard.interval.4h': '4ч',
  'dashboard.interval.1d': '1д',

  // Последний дашборд, сохранённый на устройстве и показанный до входа, с его возрастом.
  'dashboard.kept.s': 'Обновлено {n} с назад',
  'dashboard.kept.min': 'Обновлено {n} мин назад',
  'dashboard.kept.h': 'Обновлено {n} ч назад',
  'dashboard.kept.d': 'Обновлено {n} дн. назад',

  'wallet.label': 'Кошелёк {address}',
  'wallet.disconnectTitle': 'Отключить кошелёк?',
  'wallet.disconnectBody': 'Кошелёк {address} будет отключён. Подключить его снова можно в любой момент.',
  'wallet.disconnect': 'Отключить',

  // Сказанное новому пользователю: сообщество, приветственные токены, следующий шаг задания, лимит фото, что можно продать, минимум бонда, единицы.
  'community.about': 'Сообщество AXIOM — наша группа в Telegram: новости, новые условия бондов и ответы команды.',
  'community.why': 'AXIOM — для участников сообщества: так приложение знает, что вы живой человек. Вступить бесплатно.',
  'community.next': 'Вступили? Нажмите «Готово», чтобы продолжить.',
  'dashboard.welcomePart': 'Из них {amount} AXIOM — приветственные токены: только для бондов, продать их нельзя.',
  'dashboard.earnedTodayAmount': '+{amount} AXIOM',
}

type ErrorWords = { readonly [K in AppError['_tag']]?: (e: Extract<AppError, { _tag: K }>) => string }

/** Russian for the §8 errors; a server's own message keeps its words. The rest read in English. */
const RU_ERRORS: ErrorWords = {
  ServerFailed: (e) => `Ошибка: ${e.msg}`,
  RequestRejected: (e) => `Ошибка: ${e.msg}`,
  InvalidInput: (e) => `Ошибка: ${e.msg}`,
  UnderMaintenance: () => 'Ошибка: ведутся технические работы',
  TooManyRequests: (e) => `Ошибка: ${e.msg}`,
  PayloadTooLarge: () => 'Ошибка: файл слишком большой! Загрузите файл поменьше.',
  NetworkError: () => 'Ошибка: сеть недоступна! Код: ERR_NETWORK',
  Timeout: () => 'Ошибка: истекло время ожидания!',
  MalformedResponse: () => 'Ошибка: неожиданный ответ сервера',
  WalletNotConnected: () => 'Кошелёк не подключён',
  WalletConnectionDeclined: () => 'Кошелёк не подключён',
  TransactionNotSent: () => 'Транзакция не отправлена',
  WalletNotConnectedToDisconnect: () => 'Кошелёк не подключён',
  WalletRestoreFailed: () => 'Подключение не восстановлено',
  WalletBoundElsewhere: () => 'Этот кошелёк привязан к другому аккаунту AXIOM, поэтому он отключён. Подключите свой кошелёк.',
  WalletNotVerified: () => 'Кошелёк не подтвердил, что он ваш, поэтому он отключён. Подключите его снова.',
  OutsidePlatform: () => 'Откройте AXIOM в Telegram',
}

const ruError = (e: AppError): string => (RU_ERRORS[e._tag] as ((e: AppError) => string) | undefined)?.(e) ?? userMessage(e)

/** Russian notices (toasts). */
export const ruNotices: NoticeTable = {
  error: (n) => ruError(n.error),
  bondCreated: (n) => (n.viaFarming ? 'Новый бонд создан через фарминг' : 'Новый бонд создан'),
  stakeCreated: () => 'Новый стейк создан',
  transactionProcessing: () => 'Транзакция обрабатывается',
  sold: () => 'Заявка на продажу создана',
  transferred: () => 'Переведено на основной баланс',
  copied: (n) => (n.what === 'referralLink' ? 'Реферальная ссылка скопирована' : 'Скопировано в буфер обмена'),
  copyFailed: () => 'Не удалось скопировать. Выделите текст и скопируйте вручную.',
}
