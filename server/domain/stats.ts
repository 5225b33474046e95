import type { ServerContext } from './context.ts'
import { collectiveBonus } from './settings.ts'
import { readTotals } from './platform-totals.ts'

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

/** `GET /stats/financial`: the running totals (platform-totals.ts), one statement whatever the size of the platform. */
export const financialStats = async (ctx: ServerContext): Promise<FinancialStats> => {
  const t = await readTotals(ctx.db)
  return {
    totalUsers: Number(t.users),
    totalLocked: t.locked,
    activeBonds: Number(t.active_bonds),
    activeStakes: Number(t.active_stakes),
    totalRewardsPaid: t.rewards_paid,
    totalWithdrawn: t.withdrawn,
    totalTonRaised: t.ton_raised,
    collectiveBonus: await collectiveBonus(ctx),
    price: ctx.price.priceAt(ctx.now()),
  }
}
