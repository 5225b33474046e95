/**
 * What a restore must bring back exactly: every user's three balances, the platform totals
 * (`platform_totals`, summed over its shards) and how many rows of each money table there are, read
 * in one snapshot. The same SQL runs on both engines; every number is kept as decimal text (nano
 * units), so two states compare with `diffStates` and nothing passes through a float.
 */
import { TOTAL_COLUMNS } from '../../server/db/totals-migration.ts'

export interface LedgerState {
  /** telegram_id → "balance_token task_balance referral_balance" (nano). */
  readonly balances: ReadonlyMap<string, string>
  readonly totals: Readonly<Record<string, string>>
  readonly counts: Readonly<Record<string, string>>
}

type Rows = ReadonlyArray<Record<string, unknown>>

export const BALANCES_SQL = 'SELECT telegram_id, balance_token, task_balance, referral_balance FROM users ORDER BY telegram_id'
export const TOTALS_SQL = `SELECT ${TOTAL_COLUMNS.map((c) => `COALESCE(SUM(${c}), 0) AS ${c}`).join(', ')} FROM platform_totals`
const COUNTED = ['users', 'mints', 'stakes', 'withdrawals', 'operations'] as const
export const COUNTS_SQL = `SELECT ${COUNTED.map((t) => `(SELECT COUNT(*) FROM ${t}) AS ${t}`).join(', ')}`

const text = (v: unknown): string => (typeof v === 'bigint' || typeof v === 'number' ? v.toString() : String(v))

/** The state from the three queries' rows (in the order above). */
export const ledgerStateOf = (balances: Rows, totals: Rows, counts: Rows): LedgerState => ({
  balances: new Map(balances.map((r) => [text(r.telegram_id), `${text(r.balance_token)} ${text(r.task_balance)} ${text(r.referral_balance)}`])),
  totals: Object.fromEntries(TOTAL_COLUMNS.map((c) => [c, text(totals[0]![c])])),
  counts: Object.fromEntries(COUNTED.map((c) => [c, text(counts[0]![c])])),
})

/** Every difference between `expected` and `actual`, one line each; empty when they are the same. */
export const diffStates = (expected: LedgerState, actual: LedgerState): string[] => {
  const out: string[] = []
  for (const [id, b] of expected.balances) {
    const a = actual.balances.get(id)
    if (a === undefined) out.push(`user ${id}: missing (expected balances ${b})`)
    else if (a !== b) out.push(`user ${id}: balances ${a}, expected ${b}`)
  }
  for (const [id, a] of actual.balances) if (!expected.balances.has(id)) out.push(`user ${id}: present (balances ${a}) but not expected`)
  for (const [k, v] of Object.entries(expected.totals)) if (actual.totals[k] !== v) out.push(`total ${k}: ${actual.totals[k]}, expected ${v}`)
  for (const [k, v] of Object.entries(expected.counts)) if (actual.counts[k] !== v) out.push(`${k} rows: ${actual.counts[k]}, expected ${v}`)
  return out
}

/** A short digest of a state, to tell states apart (a map key). */
export const stateKey = (s: LedgerState): string =>
  JSON.stringify([[...s.balances], s.totals, s.counts])
