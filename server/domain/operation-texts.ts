import { TASKS } from './tasks.ts'

/**
 * The operations history's descriptions: each a key the app translates, with the English template
 * the domain writes (server/domain/*: moveBalance's description). The stored description stays that
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
