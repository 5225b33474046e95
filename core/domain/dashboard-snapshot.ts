import { Schema } from 'effect'
import { SECONDS_PER_DAY } from './constants.ts'
import { Price } from './entities/market.ts'
import { Mint, Stake } from './entities/mint.ts'
import { Amount } from './entities/primitives.ts'
import { SNAPSHOT_MAX_BONDS } from './kept-dashboard.ts'
import { accruedBetween } from './reward.ts'

/**
 * The last dashboard a user saw, kept on their device so that the next open paints it at once,
 * before sign-in, marked with its age, until fresh data replaces it. This module is the rule: what
 * is kept, in which version, whose it is and how old it may be. The app's adapters store the text
 * (Telegram's DeviceStorage on 9.0+ clients, else localStorage); the ui paints what `readSnapshot`
 * gives back.
 *
 * Money is kept as decimal text, never as a JSON number: each amount is the shortest decimal that
 * reads back to the figure the API's answer decoded to (for the backend's amounts, at most 9
 * decimals and 15 significant digits, the API's own text), and it is read back through the
 * entities' own schemas, as an answer of the API is.
 * How many bonds are kept and how its age reads are in kept-dashboard.ts (what the ui needs of it).
 */

/** The layout of what is kept; a snapshot of another version is not painted and is removed. */
export const SNAPSHOT_VERSION = 1

/** A snapshot older than this is not painted (and is removed): a week-old balance tells more wrong than right. */
export const SNAPSHOT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000

/** The balances the dashboard's cards show (spec §3's user data, their amounts only). */
export const SnapshotBalances = Schema.Struct({
  balance_token: Amount,
  task_balance: Amount,
  referral_balance: Amount,
  locked_balance: Schema.optional(Amount),
})
export type SnapshotBalances = typeof SnapshotBalances.Type

/** What is kept, as stored (version 1). */
const Stored = Schema.Struct({
  v: Schema.Literal(SNAPSHOT_VERSION),
  /** The Telegram user whose dashboard it is. */
  user: Schema.String,
  /** When it was taken, in ms since the epoch. */
  saved_at: Schema.Finite,
  balances: SnapshotBalances,
  /** The bonds as the dashboard listed them, in its order. */
  mints: Schema.Array(Mint),
  /** The active stakes: the main balance shows their accrual of the day. */
  stakes: Schema.Array(Stake),
  price: Schema.NullOr(Price),
})

/** The dashboard as it was: what the ui paints. */
export interface DashboardSnapshot {
  readonly userId: string
  readonly savedAtMs: number
  readonly balances: SnapshotBalances
  /** The main balance as it was shown: balance_token plus the active stakes' accrual of that day up to then. */
  readonly mainBalance: number
  readonly mints: ReadonlyArray<Mint>
  readonly stakes: ReadonlyArray<Stake>
  readonly price: Price | null
}

/** What the dashboard shows, from the app's view models: the figures as the API gave them, decoded. */
export interface DashboardFigures {
  readonly balances: SnapshotBalances
  readonly mints: ReadonlyArray<Mint>
  readonly stakes: ReadonlyArray<Stake>
  readonly price: Price | null
}

/**
 * A finite number as the shortest decimal text that reads back to it, without an exponent
 * (`1e-9` is "0.000000001"): how money is kept.
 */
export const amountText = (n: number): string => {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite amount: ${n}`)
  const shortest = String(n)
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(shortest)
  if (!m) return shortest
  const [, sign = '', whole = '', frac = '', exp = '0'] = m
  const digits = whole + frac
  const point = whole.length + Number(exp)
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** The amounts of a bond or stake record (Amount and Percent fields of core/domain/entities/mint.ts). */
const RECORD_AMOUNTS = [
  'total_amount',
  'daily_reward',
  'hold_bonus',
  'collective_bonus',
  'investment_bonus',
  'earned_reward',
  'max_reward',
  'amount_token',
  'amount_ton',
  'expected_token',
] as const
const BALANCE_AMOUNTS = ['balance_token', 'task_balance', 'referral_balance', 'locked_balance'] as const
const PRICE_AMOUNTS = ['price', 'price_change_24h', 'price_change_30d'] as const

/** A copy of `record` with each of `fields` that it has written as decimal text. */
const withAmountTexts = (record: object, fields: ReadonlyArray<string>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...(record as Record<string, unknown>) }
  for (const f of fields) {
    const v = out[f]
    if (typeof v === 'number') out[f] = amountText(v)
  }
  return out
}

/**
 * The text to keep for `userId`'s dashboard now: the balances, the first `SNAPSHOT_MAX_BONDS` bonds
 * as listed, the active stakes and the price, money as decimal text.
 */
export const snapshotText = (figures: DashboardFigures, userId: string, nowMs: number): string =>
  JSON.stringify({
    v: SNAPSHOT_VERSION,
    user: userId,
    saved_at: nowMs,
    balances: withAmountTexts(figures.balances, BALANCE_AMOUNTS),
    mints: figures.mints.slice(0, SNAPSHOT_MAX_BONDS).map((m) => withAmountTexts(m, RECORD_AMOUNTS)),
    stakes: figures.stakes.filter((s) => s.status === 'active').map((s) => withAmountTexts(s, RECORD_AMOUNTS)),
    price: figures.price ? withAmountTexts(figures.price, PRICE_AMOUNTS) : null,
  })

/** Why a kept snapshot is not painted; each is removed from the device. */
export type SnapshotDiscard = 'unreadable' | 'other-version' | 'other-user' | 'too-old'

export type SnapshotRead =
  | { readonly kind: 'show'; readonly snapshot: DashboardSnapshot }
  /** Nothing kept, or no Telegram user to keep it for. */
  | { readonly kind: 'none' }
  | { readonly kind: 'discard'; readonly reason: SnapshotDiscard }

const decodeStored = Schema.decodeUnknownOption(Stored)

/**
 * What to do with the kept `text` on a launch by `userId` at `nowMs`: paint it (this user's, this
 * version, younger than SNAPSHOT_MAX_AGE_MS), or discard it (another user's, another version, too
 * old, unreadable). Without a Telegram user nothing is painted, and what is kept stays.
 */
export const readSnapshot = (text: string | null, userId: string | null, nowMs: number): SnapshotRead => {
  if (text === null || !userId) return { kind: 'none' }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { kind: 'discard', reason: 'unreadable' }
  }
  if (typeof raw !== 'object' || raw === null) return { kind: 'discard', reason: 'unreadable' }
  const r = raw as { v?: unknown; user?: unknown }
  if (r.v !== SNAPSHOT_VERSION) return { kind: 'discard', reason: 'other-version' }
  // Whose it is, before anything of it is read further.
  if (r.user !== userId) return { kind: 'discard', reason: 'other-user' }
  const decoded = decodeStored(raw)
  if (decoded._tag === 'None') return { kind: 'discard', reason: 'unreadable' }
  const s = decoded.value
  if (nowMs - s.saved_at > SNAPSHOT_MAX_AGE_MS) return { kind: 'discard', reason: 'too-old' }
  const mainBalance = s.balances.balance_token + snapshotEarnedToday({ stakes: s.stakes, savedAtMs: s.saved_at })
  return {
    kind: 'show',
    snapshot: { userId: s.user, savedAtMs: s.saved_at, balances: s.balances, mainBalance, mints: s.mints, stakes: s.stakes, price: s.price },
  }
}

/**
 * The main balance as the dashboard showed it when the snapshot was taken: balance_token plus the
 * active stakes' accrual of that day up to then (spec §4, as `StakeListState.earnedToday`).
 */
export const snapshotEarnedToday = (s: Pick<DashboardSnapshot, 'stakes' | 'savedAtMs'>): number => {
  const at = Math.floor(s.savedAtMs / 1000)
  const dayStart = at - (at % SECONDS_PER_DAY)
  return s.stakes.filter((st) => st.status === 'active').reduce((sum, st) => sum + accruedBetween(st, dayStart, at), 0)
}
