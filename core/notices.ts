import { TOAST_DURATION_MS } from './domain/constants.ts'
import { userMessage } from './error-messages.ts'
import type { Notice, NoticeTag } from './domain/notice.ts'

/** A language's words for every notice, each rendered from its parameters. */
export type NoticeTable = { readonly [K in NoticeTag]: (n: Extract<Notice, { tag: K }>) => string }

/** The English words of every notice; where spec §4 or §8 gives a string, it is the spec's exactly. */
export const ENGLISH_NOTICES: NoticeTable = {
  error: (n) => userMessage(n.error),
  bondCreated: (n) => (n.viaFarming ? 'New Bond created via Farming' : 'New Bond created'),
  stakeCreated: () => 'New Stake created',
  transactionProcessing: () => 'Transaction is being processed',
  sold: () => 'Sale created',
  transferred: () => 'Transferred to the main balance',
  copied: (n) => (n.what === 'referralLink' ? 'Referral link copied to clipboard' : 'Copied to clipboard'),
  copyFailed: () => 'Could not copy. Select the text and copy it by hand.',
}

/** A notice in a language's table. */
export const renderNotice = (table: NoticeTable, n: Notice): string => (table[n.tag] as (n: Notice) => string)(n)

/** A notice in English: the CLI's words, and the app's fallback. */
export const noticeText = (n: Notice): string => renderNotice(ENGLISH_NOTICES, n)

/**
 * How long a toast stays: 3 s, every one (spec §8), 'Referral link copied to clipboard' too. §9's
 * 1500 ms "link-copied" is the wallet widget's own: TON Connect UI shows "Link copied" in its QR
 * modal for 1500 ms, and that is the widget's, not ours.
 */
export const noticeDurationMs = (_n: Notice): number => TOAST_DURATION_MS

/**
 * Whether `next` makes a shown toast stale: 'New Bond created' (spec §4) is the end of what
 * 'Transaction is being processed' announced, so the two never show together.
 */
export const noticeEnds = (next: Notice, shown: Notice): boolean => next.tag === 'bondCreated' && shown.tag === 'transactionProcessing'
