import { allRows, big, getRow, num } from '../db/sql.ts'
import type { ServerContext } from './context.ts'
import type { OperationRow } from './rows.ts'
import { TASKS } from './tasks.ts'
import { COIN } from '../../core/domain/constants.ts'

/**
 * The app's coin as the operations history names it: the one place its name is written for the
 * history (a rename is this edit; the rows store the unit `token`, not the name).
 */
export const TOKEN_UNIT = 'AXIOM'

/** A row's unit as the history shows it: the token's name (TOKEN_UNIT) or the chain's coin (COIN, GRAM). */
export const unitName = (unit: string): string => (unit === 'ton' ? COIN : TOKEN_UNIT)

/**
 * The operations history's descriptions: each a key the app translates, with the English template
 * the domain writes (server/domain/*: moveBalance's and recordOperation's description). The stored description stays that
 * English text (what an older client shows); the key and its parameters are read back from it, so
 * rows written before the keys existed get them too.
 */
const TEMPLATES: ReadonlyArray<{ readonly type: string; readonly key: string; readonly text: string }> = [
  { type: 'welcome', key: 'operation.welcome', text: 'Welcome balance' },
  { type: 'admin_credit', key: 'operation.admin_credit', text: 'Credited by the operator' },
  { type: 'task_reward', key: 'operation.task_reward', text: 'Task: {task}' },
  { type: 'withdraw', key: 'operation.withdraw', text: 'Sale #{sale} to {address}' },
  { type: 'withdraw_refund', key: 'operation.sale_refused', text: 'Sale #{sale} refused: tokens returned' },
  { type: 'withdraw_refund', key: 'operation.sale_cancelled', text: 'Sale #{sale} cancelled: tokens returned' },
  { type: 'transfer_out', key: 'operation.transfer_out', text: 'Moved to the main balance' },
  { type: 'transfer_in', key: 'operation.transfer_in', text: 'Moved from the referral balance' },
  { type: 'referral_reward', key: 'operation.referral_reward', text: 'Referral bonus for bond #{bond}' },
  { type: 'bond_cancel', key: 'operation.bond_cancel', text: 'Bond #{bond} cancelled, 10% penalty kept' },
  { type: 'bond_reward', key: 'operation.bond_reward_staked', text: 'Bond #{bond} reward on staking' },
  { type: 'bond_reward', key: 'operation.bond_reward', text: 'Bond #{bond} reward' },
  { type: 'bond_principal', key: 'operation.bond_principal', text: 'Bond #{bond} principal returned' },
  { type: 'stake_reward', key: 'operation.stake_reward', text: 'Stake #{stake} reward' },
  { type: 'stake_principal', key: 'operation.stake_principal', text: 'Stake #{stake} principal returned' },
  { type: 'farming_fund', key: 'operation.farming_fund', text: 'Farming link #{link} funded' },
  { type: 'farming_refund', key: 'operation.farming_refund', text: 'Farming link #{link} revoked, unused part refunded' },
  // Events that move none of the user's balances (recordOperation): the TON a bond cost and a sale's payout, in TON; a stake and a bond from a farming link, in tokens.
  { type: 'bond_paid', key: 'operation.bond_paid', text: 'Bond #{bond} bought' },
  { type: 'stake', key: 'operation.stake', text: 'Bond #{bond} staked as stake #{stake}' },
  { type: 'farming_bond', key: 'operation.farming_bond', text: 'Bond #{bond} from a farming link' },
  { type: 'sale_paid', key: 'operation.sale_paid', text: 'Sale #{sale} paid' },
  // A bond's payment sent back to the wallet it came from (late, short, or refused), less the refund's network fee.
  { type: 'bond_refund', key: 'operation.bond_refund', text: 'Refund of bond #{bond} payment' },
]

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const PATTERNS = TEMPLATES.map((t) => {
  const names: string[] = []
  const source = t.text
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part)
      if (!m) return escape(part)
      names.push(m[1]!)
      return '(.+?)'
    })
    .join('')
  return { ...t, names, re: new RegExp(`^${source}$`) }
})

/** A description's key and parameters: strings, ids as they appear in the text. */
export interface OperationText {
  readonly key: string
  readonly params: Readonly<Record<string, string>>
}

/**
 * The key and parameters of a stored description, or null for a text no template makes (an
 * operator's own words). A task's parameters name its title's key as well (`task_key`).
 */
export const operationText = (type: string, description: string): OperationText | null => {
  for (const p of PATTERNS) {
    if (p.type !== type) continue
    const m = p.re.exec(description)
    if (!m) continue
    const params: Record<string, string> = Object.fromEntries(p.names.map((n, i) => [n, m[i + 1]!]))
    if (params.task !== undefined) {
      const task = TASKS.find((t) => t.title === params.task)
      if (task) params.task_key = task.titleKey
    }
    return { key: p.key, params }
  }
  return null
}

/** One page of a user's operations history, the total, and the user's own numbers of the bonds and stakes its rows name. */
export interface OperationsPage {
  readonly rows: ReadonlyArray<OperationRow>
  readonly total: number
  readonly numbers: { readonly mints: ReadonlyMap<string, number>; readonly stakes: ReadonlyMap<string, number> }
}

/**
 * `GET /operations/history`: a page of the user's operations, newest first unless `order` says ASC.
 * The bonds' and stakes' own numbers are those stored at their insert (user_seq), read for the ids
 * this page names only; a referral bonus names the friend's bond, not one of the user's.
 */
export const operationsPage = async (
  ctx: ServerContext,
  userId: bigint,
  page: { readonly limit: number; readonly offset: number; readonly order: 'ASC' | 'DESC' },
): Promise<OperationsPage> => {
  const rows = await allRows<OperationRow>(
    ctx.db,
    `SELECT * FROM operations WHERE user_id = ? ORDER BY id ${page.order} LIMIT ? OFFSET ?`,
    userId,
    page.limit,
    page.offset,
  )
  const total = num((await getRow(ctx.db, 'SELECT COUNT(*) AS n FROM operations WHERE user_id = ?', userId))!, 'n')
  const named = { mints: new Set<string>(), stakes: new Set<string>() }
  for (const row of rows) {
    const text = operationText(row.type, row.description)
    if (!text || text.key === 'operation.referral_reward') continue
    if (/^\d+$/.test(text.params.bond ?? '')) named.mints.add(text.params.bond!)
    if (/^\d+$/.test(text.params.stake ?? '')) named.stakes.add(text.params.stake!)
  }
  const numbers = async (table: 'mints' | 'stakes'): Promise<Map<string, number>> => {
    const ids = [...named[table]]
    if (ids.length === 0) return new Map()
    const found = await allRows(
      ctx.db,
      `SELECT id, user_seq FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')}) AND user_id = ?`,
      ...ids.map(BigInt),
      userId,
    )
    return new Map(found.filter((r) => r.user_seq !== null).map((r) => [String(big(r, 'id')), num(r, 'user_seq')]))
  }
  return { rows, total, numbers: { mints: await numbers('mints'), stakes: await numbers('stakes') } }
}
