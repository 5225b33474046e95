import { describe, expect, it } from 'vitest'
import { useCasesOver } from '../fakes/use-cases.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { FixedClock } from '../fakes/fixed-clock.ts'
import { aMint, aPlan, aStake } from '../fakes/records.ts'
import { failure, succeed } from '../fakes/run.ts'
import { toId } from '../../../core/index.ts'

const setup = () => {
  const api = new FakeAxiomApi()
  const clock = new FixedClock(1_700_000_000_000)
  return { api, clock, now: clock.nowSeconds }
}

describe('bonds', () => {
  it('offers only active plans, shortest first', async () => {
    const { api } = setup()
    api.plans = [aPlan(90), aPlan(7, false), aPlan(30), aPlan(60, false), aPlan(14)]

    const plans = await succeed(useCasesOver({ api }).loadBondPlans())

    expect(plans.map((p) => p.days)).toEqual([14, 30, 90])
  })

  it('lists mints with only the newest pending one under 3 minutes old', async () => {
    const { api, clock, now } = setup()
    api.mintList = [
      aMint({ id: 1, status: 'active' }),
      aMint({ id: 2, status: 'pending', created_at: now - 60 }),
      aMint({ id: 3, status: 'pending', created_at: now - 10 }),
      aMint({ id: 4, status: 'pending', created_at: now - 200 }),
      aMint({ id: 5, status: 'completed' }),
    ]

    const mints = await succeed(useCasesOver({ api, clock }).loadMints())

    expect(mints.map((m) => m.id)).toEqual(['1', '3', '5'])
  })

  it('drops a pending mint once it is 3 minutes old', async () => {
    const { api, clock, now } = setup()
    api.mintList = [aMint({ id: 2, status: 'pending', created_at: now - 179 })]

    expect((await succeed(useCasesOver({ api, clock }).loadMints())).map((m) => m.id)).toEqual(['2'])
    clock.advance(1000)
    expect(await succeed(useCasesOver({ api, clock }).loadMints())).toEqual([])
  })

  it('applies the same pending rule to stakes', async () => {
    const { api, clock, now } = setup()
    api.stakeList = [aStake({ id: 1, status: 'pending', created_at: now - 5 }), aStake({ id: 2, status: 'pending', created_at: now - 1 })]

    expect((await succeed(useCasesOver({ api, clock }).loadStakes())).map((s) => s.id)).toEqual(['2'])
  })

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY])('refuses to quote an amount of %s without a call', async (amount) => {
    const { api } = setup()

    expect(await failure(useCasesOver({ api }).quoteBond(amount, 30))).toMatchObject({ _tag: 'InvalidInput', field: 'amount' })
    expect(api.calls).toEqual([])
  })

  it('quotes a positive amount for the chosen days', async () => {
    const { api } = setup()

    const quote = await succeed(useCasesOver({ api }).quoteBond(100, 30))

    expect(api.callsTo('calculateMint')[0]!.input).toEqual({ amount: 100, freeze_days: 30 })
    expect(quote).toMatchObject({ amount_token: 100, tariff_days: 30 })
  })

  it('stakes a mint by its id, which moves the mint to staking', async () => {
    const { api } = setup()
    api.mintList = [aMint({ id: 11 })]

    const stake = await succeed(useCasesOver({ api }).stakeMint(toId(11), { idempotencyKey: 'k' }))

    expect(api.callsTo('createStake')[0]).toEqual({ method: 'createStake', input: { mint_id: '11' }, options: { idempotencyKey: 'k' } })
    expect(stake.status).toBe('pending')
    expect(api.mintList[0]!.status).toBe('move_to_staking')
  })

  it('quotes a stake by the mint id', async () => {
    const { api } = setup()
    api.mintList = [aMint({ id: 11 })]

    await succeed(useCasesOver({ api }).quoteStake(toId(11)))

    expect(api.callsTo('calculateStake')[0]!.input).toEqual({ staking_id: '11' })
  })

  it('cancels a bond', async () => {
    const { api } = setup()
    api.mintList = [aMint({ id: 3, status: 'pending' })]

    expect((await succeed(useCasesOver({ api }).cancelBond(toId(3)))).status).toBe('canceled')
  })
})
