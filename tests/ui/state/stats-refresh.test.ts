import { Effect } from 'effect'
import { describe, expect, it } from 'vitest'
import type { ApiError, CandleSocket, FinancialStats } from '../../../core/index.ts'
import { toId } from '../../../core/index.ts'
import { BondsState } from '../../../ui/features/bonds/bonds-state.ts'
import { MarketState } from '../../../ui/features/market/market-state.ts'
import { aMint, aStake } from '../../core/fakes/records.ts'
import { stateHarness } from './harness.ts'

/** Market use cases whose stats requests are counted and answer only when the test says. */
const scriptedStats = () => {
  const pending: Array<(s: FinancialStats) => void> = []
  let asked = 0
  const market = new MarketState({
    loadPrice: () => Effect.succeed(null),
    loadCandles: () => Effect.succeed([]),
    openCandleFeed: () => ({ ensureOpen: () => {}, close: () => {}, switchInterval: () => {} }) as unknown as CandleSocket,
    loadFinancialStats: () =>
      Effect.callback<FinancialStats | null, ApiError>((resume) => {
        asked++
        pending.push((s) => resume(Effect.succeed(s)))
      }),
  })
  const answer = async (s: FinancialStats) => {
    pending.shift()!(s)
    await new Promise((r) => setTimeout(r, 0))
  }
  return { market, answer, asked: () => asked, outstanding: () => pending.length }
}

describe('the platform stats refetch', () => {
  it('has at most one request out, and asks made meanwhile become one more, whose figures are shown', async () => {
    const { market, answer, asked, outstanding } = scriptedStats()
    const first = market.refreshStats()
    const asks = [market.refreshStats(), market.refreshStats(), market.refreshStats()]
    expect(asked()).toBe(1)

    await answer({ total_users: 10 })
    expect(asked()).toBe(2)
    expect(outstanding()).toBe(1)
    expect(market.stats).toEqual({ total_users: 10 })

    await answer({ total_users: 11 })
    await Promise.all([first, ...asks])
    expect(asked()).toBe(2)
    expect(market.stats).toEqual({ total_users: 11 })

    // Once idle, the next ask goes out at once.
    void market.refreshStats()
    expect(asked()).toBe(2 + 1)
  })

  it("follows the user's own bond going live, stake and cancel, but not a pending bond or a failed cancel", async () => {
    const h = stateHarness()
    const { market, answer, asked } = scriptedStats()
    const bonds = new BondsState(h.uc, h.ticker, h.toasts, () => {}, () => void market.refreshStats())
    h.api.mintList = [aMint({ id: 4 }), aMint({ id: 12, status: 'pending' })]
    await bonds.refresh()

    bonds.applyLiveMint(aMint({ id: 9, status: 'pending' }))
    expect(asked()).toBe(0)

    bonds.applyLiveMint(aMint({ id: 9, status: 'active' }))
    expect(asked()).toBe(1)
    await answer({ active_bonds: 1 })

    expect(await bonds.stakeList.stake(toId(4))).toBe(true)
    expect(asked()).toBe(2)
    // The stake's live event comes while its refetch is out: one more follows, not a second at once.
    bonds.applyLiveStake(aStake({ id: 5, status: 'active' }))
    expect(asked()).toBe(2)
    await answer({ active_stakes: 1 })
    expect(asked()).toBe(3)
    await answer({ active_stakes: 1 })

    expect(await bonds.bondList.cancel(toId(404))).toBe(false)
    expect(asked()).toBe(3)
    expect(await bonds.bondList.cancel(toId(12))).toBe(true)
    expect(asked()).toBe(4)
    await answer({ active_bonds: 0 })
    expect(market.stats).toEqual({ active_bonds: 0 })
  })
})
