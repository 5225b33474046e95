import { Effect } from 'effect'
import { describe, expect, it } from 'vitest'
import type { ApiError, FarmingPlan, FarmingQuote, FundingSource } from '../../../core/index.ts'
import { FarmingState } from '../../../ui/features/farming/farming-state.ts'
import { aPlan } from '../../core/fakes/records.ts'
import { stateHarness } from './harness.ts'

const bondsOf = (h: ReturnType<typeof stateHarness>) => h.bonds()

describe('FarmingState funding sources', () => {
  it('re-bonding from the dashboard pays from the main balance: neither flag on plans, quote and create', async () => {
    const h = stateHarness()
    h.api.plans = [aPlan(10)]
    const farming = new FarmingState(h.uc, bondsOf(h))
    await farming.chooseSource('main')
    await farming.preview(5, 10)
    await farming.create({ amount: 5, days: 10, activations: 1, multiUse: false, forMe: false })

    const neither = { from_ref_balance: false, from_task_balance: false }
    expect(h.api.callsTo('farmingPlans')[0]?.input).toEqual(neither)
    expect(h.api.callsTo('calculateFarming')[0]?.input).toEqual({ amount: 5, freeze_days: 10, ...neither })
    expect(h.api.callsTo('createFarmingLink')[0]?.input).toMatchObject(neither)
  })

  it('each of the three sources sends its own flags', async () => {
    const h = stateHarness()
    const farming = new FarmingState(h.uc, bondsOf(h))
    for (const source of ['main', 'referral', 'task'] as const) {
      await farming.chooseSource(source)
      await farming.create({ amount: 1, days: 10, activations: 1, multiUse: false, forMe: false })
    }
    expect(h.api.callsTo('createFarmingLink').map((c) => c.input)).toMatchObject([
      { from_ref_balance: false, from_task_balance: false },
      { from_ref_balance: true, from_task_balance: false },
      { from_ref_balance: false, from_task_balance: true },
    ])
  })
})

describe('FarmingState answers that arrive late', () => {
  /** Use cases whose plans and quotes answer only when the test says. */
  const scripted = () => {
    const h = stateHarness()
    const plans = new Map<FundingSource, (p: FarmingPlan[]) => void>()
    const quotes: Array<{ key: string; answer: () => void }> = []
    const quote = (amount: number, days: number): FarmingQuote => ({
      amount_token: amount,
      amount_ton: amount / 100,
      tariff_days: days,
      daily_reward: 0.5,
      collective_bonus: 0.1,
      max_reward: (amount * 0.6 * days) / 100,
      expected_reward: (amount * 0.6 * days) / 100,
    })
    const farming = new FarmingState(
      {
        ...h.uc,
        loadFarmingPlans: (source) => Effect.callback<FarmingPlan[], ApiError>((resume) => void plans.set(source, (p) => resume(Effect.succeed(p)))),
        quoteFarming: (amount, days, source) =>
          Effect.callback<FarmingQuote | null, ApiError>((resume) => {
            quotes.push({ key: `${source}:${amount}:${days}`, answer: () => resume(Effect.succeed(quote(amount, days))) })
          }),
      },
      bondsOf(h),
    )
    return { farming, plans, quotes }
  }

  it('keeps the plans of the source the screen shows, not of one left meanwhile', async () => {
    const { farming, plans } = scripted()
    const toReferral = farming.chooseSource('referral')
    const toMain = farming.chooseSource('main')
    plans.get('main')!([{ days: 30, is_active: true, available: 100 }])
    await toMain
    plans.get('referral')!([{ days: 10, is_active: true, available: 7 }])
    await toReferral
    expect(farming.source).toBe('main')
    expect(farming.plans).toEqual([{ days: 30, is_active: true, available: 100 }])
  })

  it('shows the quote of the latest amount only, and none once the source changed', async () => {
    const { farming, quotes, plans } = scripted()
    const opened = farming.chooseSource('main')
    plans.get('main')!([])
    await opened
    const first = farming.preview(5, 10)
    const second = farming.preview(8, 10)
    quotes[1]!.answer()
    await second
    quotes[0]!.answer()
    await first
    expect(farming.quoteFor(8, 10)?.amount_token).toBe(8)
    expect(farming.quoteFor(5, 10)).toBeNull()

    void farming.chooseSource('task')
    expect(farming.quoteFor(8, 10)).toBeNull()
    expect(quotes.map((q) => q.key)).toEqual(['main:5:10', 'main:8:10'])
  })
})
