// From its own module, not core/index.ts: the entry holds this catalogue, and the barrel would make
// the entry wait for the whole core (and effect) to download before it can run.
import { ENGLISH_NOTICES, type NoticeTable } from '../../core/notices.ts'
import type { enScreens } from './en-screens.ts'
import { enBoot } from './en-boot.ts'

/**
 * English: the user-visible strings of the shell and the dashboard (the rest: en-screens.ts). Where
 * the spec gives a string, it is the spec's exactly.
 */
export const en = {
  ...enBoot,
  // A bond whose payment the chain has shown (its stream), not credited yet.
  'mint.paymentSeen': 'Payment seen',
  'app.name': 'AXIOM',
  'common.loading': 'Loading…',
  'common.close': 'Close',
  'common.cancel': 'Cancel',
  'common.notFound': 'This page does not exist',
  'common.toDashboard': 'Go to the dashboard',

  'nav.label': 'Main navigation',
  'nav.bond': 'Bond AXIOM',
  'nav.staking': 'Staking',
  'nav.dashboard': 'Dashboard',
  'nav.referral': 'Referral',
  'nav.tasks': 'Tasks',
  'nav.invite': 'Invite Friends',
  'nav.copyLink': 'Copy referral link',
  'toast.region': 'Notifications',
  'toast.dismiss': 'Dismiss',

  'loader.label': 'Loading AXIOM',
  'maintenance.title': 'We are under maintenance',
  'maintenance.body': 'Come back later',
  'outside.title': 'Open AXIOM in Telegram',
  'outside.body': 'AXIOM is a Telegram mini app. Taking you to the bot…',
  'outside.open': 'Open the bot',
  'manifest.opening': 'Opening the manifest…',

  'community.title': 'Join the community to use AXIOM',
  'community.join': 'Join the community',
  'community.done': 'Done',

  'balance.main': 'Main balance',
  'balance.referral': 'Referral balance',
  'balance.task': 'Task balance',
  'dashboard.earnedToday': 'Total earned today',
  'dashboard.price': 'AXIOM price',
  'dashboard.change24h': '24h',
  'dashboard.change30d': '30d',
  'dashboard.chart': 'Price chart',
  'dashboard.interval': 'Chart interval',
  'dashboard.chartEmpty': 'No price data yet',
  'dashboard.chartCredit': 'Chart by TradingView',
  'dashboard.history': 'History',
  'dashboard.rebond': 'Re-bonding',
  'dashboard.sell': 'Sell',
  'dashboard.interval.5m': '5m',
  'dashboard.interval.30m': '30m',
  'dashboard.interval.1h': '1h',
  'dashboard.interval.4h': '4h',
  'dashboard.interval.1d': '1d',

  // The last dashboard, kept on the device and shown before sign-in, with its age.
  'dashboard.kept.s': 'Updated {n} s ago',
  'dashboard.kept.min': 'Updated {n} min ago',
  'dashboard.kept.h': 'Updated {n} h ago',
  'dashboard.kept.d': 'Updated {n} d ago',

  'wallet.label': 'Wallet {address}',
  'wallet.disconnectTitle': 'Disconnect wallet?',
  'wallet.disconnectBody': 'Wallet {address} will be disconnected. You can connect it again at any time.',
  'wallet.disconnect': 'Disconnect',

  // Said to a first-time user: what the community is, the welcome tokens' part, the units.
  'community.about': 'The AXIOM community is our Telegram group: news, new bond terms and answers from the team.',
  'community.why': 'AXIOM is for its members: joining is how the app knows you are a real person, and it is free.',
  'community.next': 'Joined? Tap Done to continue.',
  'dashboard.welcomePart': 'Of it, {amount} AXIOM are welcome tokens: for bonds only, they cannot be sold.',
  'dashboard.earnedTodayAmount': '+{amount} AXIOM',
} as const

/** Every key: the entry's (above) and the other screens' (en-screens.ts, a chunk of its own). */
export type MessageKey = keyof typeof en | keyof typeof enScreens
/** Every language must give every key (the type enforces it). */
export type Messages = { readonly [K in MessageKey]: string }
/** A language's texts of the first screens (its file in the boot), as en.ts has the English. */
export type BootMessages = { readonly [K in keyof typeof en]: string }
/** A language's texts of the other screens (its `-screens.ts` chunk), as en-screens.ts has the English. */
export type ScreenMessages = { readonly [K in keyof typeof enScreens]: string }

/** English notices (toasts): the core's English catalogue, where spec §4 and §8 give the words. */
export const enNotices: NoticeTable = ENGLISH_NOTICES
