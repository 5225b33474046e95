import type { ServerContext } from './context.ts'
import { inTx } from './context.ts'
import { allRows, big, getRow, num, run, str } from './db/sql.ts'
import { EXTERNAL_CREDIT_TYPES, BALANCE_COLUMNS, moveBalance, type BalanceColumn } from './domain/ledger.ts'
import { expireUnpaidBonds, markMintPaid } from './domain/mints.ts'
import { settleUser } from './domain/positions.ts'
import { writeSetting } from './domain/settings.ts'
import { InvalidInput, UnknownTelegramUser } from './domain/errors.ts'
import { formatNano, parseFixed, PERCENT_DECIMALS, requireNano } from './money.ts'

export interface LedgerTotals {
  /** Tokens that came in from outside: welcome, admin credits, rewards, and TON-paid bond principal. */
  readonly credited: bigint
  readonly balances: bigint
  /** Principal of active bonds and stakes. */
  readonly locked: bigint
  /** Withdrawals reserved and not yet failed. */
  readonly withdrawals: bigint
  /** Unused activations of active links. */
  readonly linkFunds: bigint
  /** Penalties kept on cancelled bonds. */
  readonly penalties: bigint
}

/** Local operator commands over the database: the CLI and the tests use the same functions. */
export const createAdmin = (ctx: ServerContext) => {
  const userByTelegram = (telegramId: string | number | bigint) => {
    const row = getRow(ctx.db, 'SELECT * FROM users WHERE telegram_id = ?', BigInt(telegramId))
    if (!row) throw new UnknownTelegramUser(telegramId)
    return row
  }

  return {
    setMaintenance: (on: boolean) => writeSetting(ctx.db, 'maintenance', on ? 'on' : 'off'),

    setMember: (telegramId: string | number | bigint, member = true) => {
      const user = userByTelegram(telegramId)
      run(ctx.db, 'UPDATE users SET community = ? WHERE id = ?', member ? 1 : 0, big(user, 'id'))
    },

    /** Credits whole or decimal tokens (text, exact) to one of the user's balances. */
    credit: (telegramId: string | number | bigint, amount: string, column: BalanceColumn = 'balance_token') => {
      if (!BALANCE_COLUMNS.includes(column)) throw new InvalidInput(`balance must be one of ${BALANCE_COLUMNS.join(', ')}`)
      const user = userByTelegram(telegramId)
      const nano = requireNano('amount', amount)
      moveBalance(ctx, big(user, 'id'), column, nano, 'admin_credit', 'Credited by the operator')
      return formatNano(nano)
    },

    markPaid: (mintId: string | number | bigint, paidNano?: bigint) => markMintPaid(ctx, BigInt(mintId), paidNano),

    /** Sets the global collective bonus (percent text, e.g. "0.25") and broadcasts it. */
    setCollectiveBonus: (percent: string) => {
      const scaled = parseFixed(percent, PERCENT_DECIMALS)
      if (typeof scaled === 'string') throw new InvalidInput(`percent ${scaled}`)
      inTx(ctx, () => {
        writeSetting(ctx.db, 'collective_bonus', scaled.toString())
        ctx.events.push('collective', null, () => ({ event: 'global:collective_bonus', collectiveBonus: scaled }))
      })
    },

    users: () =>
      allRows(ctx.db, 'SELECT * FROM users ORDER BY id').map((u) => ({
        id: num(u, 'id'),
        telegram_id: big(u, 'telegram_id').toString(),
        name: str(u, 'name'),
        ref_code: str(u, 'ref_code'),
        community: big(u, 'community') !== 0n,
        balance_token: formatNano(big(u, 'balance_token')),
        task_balance: formatNano(big(u, 'task_balance')),
        referral_balance: formatNano(big(u, 'referral_balance')),
      })),

    settleAll: () => {
      settleUser(ctx, null)
      expireUnpaidBonds(ctx)
    },

    /** Every table a user can change, as text: equal snapshots mean nothing changed. */
    snapshot: (): string =>
      ['users', 'refresh_tokens', 'mints', 'stakes', 'farming_links', 'farming_activations', 'withdrawals', 'operations', 'task_progress', 'idempotency', 'settings']
        .map((t) => `${t}:${JSON.stringify(allRows(ctx.db, `SELECT * FROM ${t} ORDER BY rowid`), (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`)
        .join('\n'),

    /** The conservation law's terms: credited = balances + locked + withdrawals + linkFunds + penalties. */
    ledger: (): LedgerTotals => {
      const sum = (text: string) => big(getRow(ctx.db, text)!, 'v')
      const types = EXTERNAL_CREDIT_TYPES.map((t) => `'${t}'`).join(', ')
      return {
        credited:
          sum(`SELECT COALESCE(SUM(amount), 0) AS v FROM operations WHERE type IN (${types})`) +
          sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM mints WHERE source = 'ton' AND activated_at IS NOT NULL`),
        balances: sum('SELECT COALESCE(SUM(balance_token + task_balance + referral_balance), 0) AS v FROM users'),
        locked:
          sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM mints WHERE status = 'active'`) +
          sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM stakes WHERE status = 'active'`),
        withdrawals: sum(`SELECT COALESCE(SUM(token_amount), 0) AS v FROM withdrawals WHERE status != 'failed'`),
        linkFunds: sum(
          `SELECT COALESCE(SUM(amount * (count_activations - used_activations)), 0) AS v FROM farming_links WHERE status = 'active'`,
        ),
        penalties: sum('SELECT COALESCE(SUM(penalty), 0) AS v FROM mints'),
      }
    },
  }
}

export type Admin = ReturnType<typeof createAdmin>
