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
  commands: { start: 'Открыть приложение AXIOM', balance: 'Ваши балансы', bonds: 'Ваши бонды и стейки', notifications: 'Уведомления вкл/выкл', help: 'Что умеет бот' },
}

export const wordsFor = (languageCode: string | undefined): Words => (languageCode?.toLowerCase().startsWith('ru') ? RU : EN)
export const BOT_LANGUAGES: Readonly<Record<'en' | 'ru', Words>> = { en: EN, ru: RU }
