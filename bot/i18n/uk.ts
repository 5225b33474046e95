import type { Words } from './words.ts'

/** The bot in Ukrainian. */
export const uk: Words = {
  start: 'Вітаємо в AXIOM: бонди, стейкінг і нагороди в AXIOM на TON. Відкрийте застосунок, щоб почати.',
  startWithParam: 'Вітаємо в AXIOM! Вас запросили: відкрийте застосунок, щоб приєднатися.',
  open: 'Відкрити AXIOM',
  menu: 'AXIOM',
  help: 'Команди:\n/start – відкрити застосунок AXIOM\n/balance – ваші баланси\n/bonds – ваші бонди й стейки\n/notifications on|off – повідомлення про бонди, продажі та друзів\n/help – цей список',
  balance: (b) => `Ваші баланси\nОсновний баланс: ${b.token} AXIOM\nБаланс завдань: ${b.task} AXIOM\nРеферальний баланс: ${b.referral} AXIOM`,
  noRecords: 'Бондів і стейків ще немає. Відкрийте застосунок, щоб купити бонд.',
  bond: 'Бонд',
  stake: 'Стейк',
  reward: 'нагорода',
  notificationsOn: 'Сповіщення увімкнено.',
  notificationsOff: 'Сповіщення вимкнено.',
  notificationsUsage: 'Напишіть /notifications on або /notifications off.',
  unavailable: 'AXIOM зараз недоступний. Спробуйте за хвилину.',
  saleCancelled: (s) =>
    `Продаж #${s.id} на адресу ${s.address} скасовано: нічого не надіслано, ${s.token_amount} AXIOM повернулися на ${s.from_ref_balance ? 'реферальний' : 'основний'} баланс.`,
  saleCancelledShort: 'Продаж скасовано: токени повернулися.',
  saleAlreadyCancelled: 'Цей продаж уже скасовано.',
  saleNotWaiting: 'Цей продаж уже не можна скасувати: очікування закінчилося, триває виплата.',
  saleNotYours: 'Це не ваш продаж.',
  commands: { start: 'Відкрити застосунок AXIOM', balance: 'Ваші баланси', bonds: 'Ваші бонди й стейки', notifications: 'Сповіщення увімк./вимк.', help: 'Що вміє бот' },
}
