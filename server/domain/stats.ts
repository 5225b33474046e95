import { big, getRow, num } from '../db/sql.ts'
import type { ServerContext } from '../context.ts'
import { formatNano, formatPercent } from '../money.ts'
import { collectiveBonus } from './settings.ts'

/** `GET /stats/financial`: platform-wide figures, amounts as exact decimal strings. */
export const financialStats = (ctx: ServerContext) => {
  const sum = (text: string) => big(getRow(ctx.db, text)!, 'v')
  return {
    total_users: num(getRow(ctx.db, 'SELECT COUNT(*) AS n FROM users')!, 'n'),
    total_locked: formatNano(
      sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM mints WHERE status = 'active'`) +
        sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM stakes WHERE status = 'active'`),
    ),
    active_bonds: num(getRow(ctx.db, `SELECT COUNT(*) AS n FROM mints WHERE status = 'active'`)!, 'n'),
    active_stakes: num(getRow(ctx.db, `SELECT COUNT(*) AS n FROM stakes WHERE status = 'active'`)!, 'n'),
    total_rewards_paid: formatNano(
      sum(`SELECT COALESCE(SUM(amount), 0) AS v FROM operations WHERE type IN ('bond_reward', 'stake_reward')`),
    ),
    total_withdrawn: formatNano(sum(`SELECT COALESCE(SUM(token_amount), 0) AS v FROM withdrawals`)),
    total_ton_raised: formatNano(sum(`SELECT COALESCE(SUM(paid_nano), 0) AS v FROM mints WHERE paid_nano IS NOT NULL`)),
    collective_bonus: formatPercent(collectiveBonus(ctx.db)),
    price: ctx.price.current(ctx.now()).price,
  }
}
