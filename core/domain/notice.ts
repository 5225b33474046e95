import type { AppError } from '../errors.ts'

/**
 * Something the user is told in passing, as data: a tag and its parameters. Each front end renders
 * it in the user's language (ui/i18n/en.ts and ru.ts in the app; the English catalogue in
 * core/notices.ts in the CLI).
 */
export type Notice =
  /** A failure, told as spec §8 words it. */
  | { readonly tag: 'error'; readonly error: AppError }
  /** A bond became active (spec §4); `viaFarming` when a farm code brought it. */
  | { readonly tag: 'bondCreated'; readonly viaFarming: boolean }
  | { readonly tag: 'stakeCreated' }
  /** The wallet sent a bond's payment; the balance is being watched (spec §4). */
  | { readonly tag: 'transactionProcessing' }
  | { readonly tag: 'sold' }
  | { readonly tag: 'transferred' }
  /** Text reached the clipboard; `what` names it ('link' for a referral or farming link). */
  | { readonly tag: 'copied'; readonly what: 'text' | 'referralLink' }
  | { readonly tag: 'copyFailed' }

export type NoticeTag = Notice['tag']
export type NoticeKind = 'error' | 'success' | 'info'

/** How a notice looks: an error, a success, or information. */
export const noticeKind = (n: Notice): NoticeKind =>
  n.tag === 'error' || n.tag === 'copyFailed' ? 'error' : n.tag === 'transactionProcessing' ? 'info' : 'success'
