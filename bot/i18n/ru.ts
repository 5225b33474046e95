import type { Words } from './words.ts'

/** The bot in Russian. */
export const ru: Words = {
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
