/** A sale as POST /api/telegram/sale-cancel answers it (docs/api.md), what the message after a cancel names. */
export interface CancelledSale {
  readonly id: number
  readonly token_amount: string
  readonly address: string
  readonly from_ref_balance: boolean
}

/** What the bot says, in English and Russian (chosen by the user's language_code). */
export interface Words {
  readonly start: string
  readonly startWithParam: string
  readonly open: string
  readonly menu: string
  readonly help: string
  readonly balance: (b: { token: string; task: string; referral: string }) => string
  readonly noRecords: string
  readonly bond: string
  readonly stake: string
  readonly reward: string
  readonly notificationsOn: string
  readonly notificationsOff: string
  readonly notificationsUsage: string
  readonly unavailable: string
  /** The answers to a press of a sale's Cancel button (the bot's message about a sale waiting its cooling period). */
  readonly saleCancelled: (sale: CancelledSale) => string
  readonly saleCancelledShort: string
  readonly saleAlreadyCancelled: string
  readonly saleNotWaiting: string
  readonly saleNotYours: string
  readonly commands: Readonly<Record<'start' | 'balance' | 'bonds' | 'notifications' | 'help', string>>
}

const EN: Words = {
  start: 'Welcome to AXIOM: bond, stake and earn AXIOM on TON. Open the app to start.',
  startWithParam: 'Welcome to AXIOM! You were invited: open the app to join.',
  open: 'Open AXIOM',
  menu: 'AXIOM',
  help: 'Commands:\n/start – open the AXIOM app\n/balance – your balances\n/bonds – your bonds and stakes\n/notifications on|off – messages about your bonds, sales and friends\n/help – this list',
  // The app's own names for the three balances (ui/i18n, balance.main / .task / .referral).
  balance: (b) => `Your balances\nMain balance: ${b.token} AXIOM\nTask balance: ${b.task} AXIOM\nReferral balance: ${b.referral} AXIOM`,
  noRecords: 'No bonds or stakes yet. Open the app to buy a bond.',
  bond: 'Bond',
  stake: 'Stake',
  reward: 'reward',
  notificationsOn: 'Notifications are on.',
  notificationsOff: 'Notifications are off.',
  notificationsUsage: 'Use /notifications on or /notifications off.',
  unavailable: 'AXIOM is not reachable right now. Try again in a minute.',
  saleCancelled: (s) =>
    `Sale #${s.id} to ${s.address} was cancelled: nothing was sent, and ${s.token_amount} AXIOM are back on your ${s.from_ref_balance ? 'referral' : 'main'} balance.`,
  saleCancelledShort: 'Sale cancelled: your tokens are back.',
  saleAlreadyCancelled: 'This sale was already cancelled.',
  saleNotWaiting: 'This sale can no longer be cancelled: its wait is over and it is being paid.',
  saleNotYours: 'This is not a sale of yours.',
  commands: { start: 'Open the AXIOM app', balance: 'Your balances', bonds: 'Your bonds and stakes', notifications: 'Notifications on or off', help: 'What the bot can do' },
}

const RU: Words = {
  start: 'Добро пожаловать в AXIOM: бонды, стейкинг и награды в AXIOM на TON. Откройте приложение, чтобы начать.',
  startWithParam: 'Добро пожаловать в AXIOM! Вас пригласили: откройте приложение, чтобы присоединиться.',
  open: 'Открыть AXIOM',
  menu: 'AXIOM',
  help: 'Команды:\n/start – открыть приложение AXIOM\n/balance – ваши балансы\n/bonds – ваши бонды и стейки\n/notifications on|off – сообщения о бондах, продажах и друзьях\n/help – этот список',
  balance: (b) => `Ваши балансы\nОсновной баланс: ${b.token} AXIOM\nБаланс заданий: ${b.task} AXIOM\nРеферальный баланс: ${b.referral} AXIOM`,
  noRecords: 'Пока нет бондов и стейков. Откройте приложение, чтобы купить бонд.',
  bond: 'Бонд',
  stake: 'Стейк',
  reward: 'награда',
  notificationsOn: 'Уведомления включены.',
  notificationsOff: 'Уведомления выключены.',
  notificationsUsage: 'Напишите /notifications on или /notifications off.',
  unavailable: 'AXIOM сейчас недоступен. Попробуйте через минуту.',
  saleCancelled: (s) =>
    `Продажа #${s.id} на адрес ${s.address} отменена: ничего не отправлено, ${s.token_amount} AXIOM вернулись на ${s.from_ref_balance ? 'реферальный' : 'основной'} баланс.`,
  saleCancelledShort: 'Продажа отменена: токены вернулись.',
  saleAlreadyCancelled: 'Эта продажа уже отменена.',
  saleNotWaiting: 'Эту продажу уже нельзя отменить: ожидание закончилось, идёт выплата.',
  saleNotYours: 'Это не ваша продажа.',
  commands: { start: 'Открыть приложение AXIOM', balance: 'Ваши балансы', bonds: 'Ваши бонды и стейки', notifications: 'Уведомления вкл/выкл', help: 'Что умеет бот' },
}

export const wordsFor = (languageCode: string | undefined): Words => (languageCode?.toLowerCase().startsWith('ru') ? RU : EN)
export const BOT_LANGUAGES: Readonly<Record<'en' | 'ru', Words>> = { en: EN, ru: RU }
