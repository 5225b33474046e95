import { big, getRow, num } from '../db/sql.ts'
import type { ServerContext } from './context.ts'
import { collectiveBonus } from './settings.ts'

/** Platform-wide figures: amounts in nano-units, the collective bonus on the 1e4 scale, the price in nano TON per AXIOM. */
export interface FinancialStats {
  readonly totalUsers: number
  readonly totalLocked: bigint
  readonly activeBonds: number
  readonly activeStakes: number
  readonly totalRewardsPaid: bigint
  readonly totalWithdrawn: bigint
  readonly totalTonRaised: bigint
  readonly collectiveBonus: bigint
  readonly price: bigint
}

/** `GET /stats/financial`. */
export const financialStats = async (ctx: ServerContext): Promise<FinancialStats> => {
  const sum = async (text: string) => big(((await getRow(ctx.db, text)))!, 'v')
  const count = async (text: string) => num(((await getRow(ctx.db, text)))!, 'n')
  return {
    totalUsers: await count('SELECT COUNT(*) AS n FROM users'),
    totalLocked:
      (await sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM mints WHERE status = 'active'`)) +
      (await sum(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM stakes WHERE status = 'active'`)),
    activeBonds: await count(`SELECT COUNT(*) AS n FROM mints WHERE status = 'active'`),
    activeStakes: await count(`SELECT COUNT(*) AS n FROM stakes WHERE status = 'active'`),
    totalRewardsPaid: await sum(`SELECT COALESCE(SUM(amount), 0) AS v FROM operations WHERE type IN ('bond_reward', 'stake_reward')`),
    totalWithdrawn: await sum(`SELECT COALESCE(SUM(token_amount), 0) AS v FROM withdrawals`),
    totalTonRaised: await sum(`SELECT COALESCE(SUM(paid_nano), 0) AS v FROM mints WHERE paid_nano IS NOT NULL`),
    collectiveBonus: await collectiveBonus(ctx),
    price: ctx.price.priceAt(ctx.now()),
  }
}
