import type { ServerContext } from './domain/context.ts'
import { inTx } from './domain/context.ts'
import { allRows, big, getRow, num, run, str, type Row } from './db/sql.ts'
import { EXTERNAL_CREDIT_TYPES, BALANCE_COLUMNS, moveBalance, type BalanceColumn } from './domain/ledger.ts'
import { markMintPaid } from './domain/mints.ts'
import { expireUnpaidBondsAsSeen, TREASURY_CURSOR } from './domain/chain-cursor.ts'
import { completeDuePositions } from './domain/settle-pass.ts'
import { verifyTotals } from './domain/platform-totals.ts'
import { writeSetting } from './domain/settings.ts'
import { queueCollectiveBonus, queueSetting } from './domain/user-events.ts'
import { InvalidInput, UnknownTelegramUser } from './domain/errors.ts'
import { endUserSessions } from './auth/tokens.ts'
import { formatNano, parseFixed, PERCENT_DECIMALS, requireNano } from './domain/money.ts'

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

const userLine = (u: Row) => ({
  id: num(u, 'id'),
  telegram_id: big(u, 'telegram_id').toString(),
  name: str(u, 'name'),
  ref_code: str(u, 'ref_code'),
  community: big(u, 'community') !== 0n,
  balance_token: formatNano(big(u, 'balance_token')),
  task_balance: formatNano(big(u, 'task_balance')),
  referral_balance: formatNano(big(u, 'referral_balance')),
})

/**
 * Local operator commands over the database: the CLI and the tests use the same functions.
 * `chainWatched`: whether a chain watcher credits this deployment's payments (settleAll's expiry).
 */
export const createAdmin = (ctx: ServerContext, o: { chainWatched?: () => boolean } = {}) => {
  const userByTelegram = async (telegramId: string | number | bigint) => {
    const row = await getRow(ctx.db, 'SELECT * FROM users WHERE telegram_id = ?', BigInt(telegramId))
    if (!row) throw new UnknownTelegramUser(telegramId)
    return row
  }

  return {
    setMaintenance: (on: boolean) =>
      inTx(ctx, async (ctx) => {
        await writeSetting(ctx.db, 'maintenance', on ? 'on' : 'off')
        queueSetting(ctx, 'maintenance')
      }),

    setMember: async (telegramId: string | number | bigint, member = true) => {
      const user = await userByTelegram(telegramId)
      await run(ctx.db, 'UPDATE users SET community = ? WHERE id = ?', member ? 1 : 0, big(user, 'id'))
    },

    /** Credits whole or decimal tokens (text, exact) to one of the user's balances. */
    credit: async (telegramId: string | number | bigint, amount: string, column: BalanceColumn = 'balance_token') => {
      if (!BALANCE_COLUMNS.includes(column)) throw new InvalidInput(`balance must be one of ${BALANCE_COLUMNS.join(', ')}`)
      const user = await userByTelegram(telegramId)
      const nano = requireNano('amount', amount)
      await moveBalance(ctx, big(user, 'id'), column, nano, 'admin_credit', 'Credited by the operator')
      return formatNano(nano)
    },

    markPaid: (mintId: string | number | bigint, paidNano?: bigint) => markMintPaid(ctx, BigInt(mintId), paidNano),

    /**
     * Ends every session of a user: their refresh tokens stop working, and their access tokens at once
     * on every instance that hears the announcement (PostgreSQL), else within 30 s. How many sessions it ended.
     */
    revokeSessions: async (telegramId: string | number | bigint): Promise<number> =>
      endUserSessions(ctx, big(await userByTelegram(telegramId), 'id')),

    /** Sets the global collective bonus (percent text, e.g. "0.25") and broadcasts it. */
    setCollectiveBonus: async (percent: string) => {
      const scaled = parseFixed(percent, PERCENT_DECIMALS)
      if (typeof scaled === 'string') throw new InvalidInput(`percent ${scaled}`)
      await inTx(ctx, async (ctx) => {
        await writeSetting(ctx.db, 'collective_bonus', scaled.toString())
        queueCollectiveBonus(ctx, scaled)
      })
    },

    /** Every user and their balances, in id order, a page at a time (constant memory at any size). */
    eachUser: async function* (pageSize = 1_000) {
      let after = 0n
      for (;;) {
        const page = await allRows(ctx.db, 'SELECT * FROM users WHERE id > ? ORDER BY id LIMIT ?', after, pageSize)
        for (const u of page) yield userLine(u)
        const last = page[page.length - 1]
        if (!last || page.length < pageSize) return
        after = big(last, 'id')
      }
    },

    /** Every user, as one list (tests and small databases; the CLI streams `eachUser`). */
    users: async () => {
      const all: Array<ReturnType<typeof userLine>> = []
      for await (const u of createAdmin(ctx).eachUser()) all.push(u)
      return all
    },

    /** Where the running totals of /stats/financial differ from the rows (platform-totals.ts). */
    verifyTotals: () => verifyTotals(ctx.engine),

    settleAll: async () => {
      await completeDuePositions(ctx)
      await expireUnpaidBondsAsSeen(ctx, { name: TREASURY_CURSOR, watched: o.chainWatched?.() ?? false })
    },

    /** Every table a user can change, as text: equal snapshots mean nothing changed. */
    snapshot: async (): Promise<string> => {
      const tables: ReadonlyArray<readonly [string, string]> = [
        ['users', 'id'],
        ['refresh_tokens', 'hash'],
        ['mints', 'id'],
        ['stakes', 'id'],
        ['farming_links', 'id'],
        ['farming_activations', 'link_id, user_id'],
        ['withdrawals', 'id'],
        ['operations', 'id'],
        ['task_progress', 'user_id, task_id'],
        ['idempotency', 'user_id, route, key'],
        ['settings', 'key'],
      ]
      const parts: string[] = []
      for (const [t, key] of tables)
        parts.push(`${t}:${JSON.stringify(await allRows(ctx.db, `SELECT * FROM ${t} ORDER BY ${key}`), (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`)
      return parts.join('\n')
    },

    /** The conservation law's terms: credited = balances + locked + withdrawals + linkFunds + penalties. */
    ledger: async (): Promise<LedgerTotals> => {
      const sum = async (text: string) => big((await getRow(ctx.db, text))!, 'v')
      const types = EXTERNAL_CREDIT_TYPES.map((t) => `'${t}'`).join(', ')
      return {
        credited:
          await sum(`SELECT COALESCE(SUM(amount), 0) AS v FROM operations WHERE type IN (${types})`) +
          await sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM mints WHERE source = 'ton' AND activated_at IS NOT NULL`),
        balances: await sum('SELECT COALESCE(SUM(balance_token + task_balance + referral_balance), 0) AS v FROM users'),
        locked:
          await sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM mints WHERE status = 'active'`) +
          await sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM stakes WHERE status = 'active'`),
        withdrawals: await sum(`SELECT COALESCE(SUM(token_amount), 0) AS v FROM withdrawals WHERE status != 'failed'`),
        linkFunds: await sum(
          `SELECT COALESCE(SUM(amount * (count_activations - used_activations)), 0) AS v FROM farming_links WHERE status = 'active'`,
        ),
        penalties: await sum('SELECT COALESCE(SUM(penalty), 0) AS v FROM mints'),
      }
    },
  }
}

export type Admin = ReturnType<typeof createAdmin>
