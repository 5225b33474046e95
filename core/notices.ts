import { LINK_COPIED_TOAST_MS, TOAST_DURATION_MS } from './domain/constants.ts'
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

/** How long a toast stays (spec §8: 3 s; a copied link 1.5 s). */
export const noticeDurationMs = (n: Notice): number => (n.tag === 'copied' ? LINK_COPIED_TOAST_MS : TOAST_DURATION_MS)
