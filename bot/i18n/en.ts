import type { Words } from './words.ts'

/** The bot in English: every user whose language the bot does not speak reads it. */
export const en: Words = {
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
