import { Effect } from 'effect'
import { describe, expect, it } from 'vitest'
import { type ApiError, type BondQuote, NetworkError, RequestRejected, toId } from '../../../core/index.ts'
import { BondsState } from '../../../ui/features/bonds/bonds-state.ts'
import { FarmingState } from '../../../ui/features/farming/farming-state.ts'
import { SellState } from '../../../ui/features/sell/sell-state.ts'
import { aMint } from '../../core/fakes/records.ts'
import { bondQuotesOf, stakeQuotesOf, stateHarness, toastTexts } from './harness.ts'

const ADDRESS = `0:${'12'.repeat(32)}`
const tooLittle = new RequestRejected({ status: 422, msg: 'amount must be at least 1' })

describe('a refused quote is kept for exactly the input it answers, and told by no toast or haptic', () => {
  it('bonds: the refusal of 0.5 shows for 0.5 only, and a good amount brings its quote back', async () => {
    const h = stateHarness()
    const bonds = bondQuotesOf(h.bonds())
    h.api.failWith('calculateMint', tooLittle)

    await bonds.preview(0.5, 30)
    expect(bonds.refusalFor(0.5, 30)).toBe('amount must be at least 1')
    expect(bonds.quoteFor(0.5, 30)).toBeNull()
    expect(bonds.refusalFor(0.5, 60)).toBeNull()
    expect(bonds.refusalFor(5, 30)).toBeNull()
    expect(toastTexts(h)).toEqual([])
    expect(h.platform.haptics).toEqual([])

    h.api.recover('calculateMint')
    await bonds.preview(10, 30)
    expect(bonds.refusalFor(10, 30)).toBeNull()
    expect(bonds.quoteFor(10, 30)).not.toBeNull()
    expect(bonds.refusalFor(0.5, 30)).toBeNull()
  })

  it('bonds: a refusal answered after a newer amount was asked is dropped', async () => {
    const h = stateHarness()
    const answers: Array<(r: Effect.Effect<BondQuote | null, ApiError>) => void> = []
    const bonds = bondQuotesOf(
      new BondsState(
        { ...h.uc, quoteBond: () => Effect.callback<BondQuote | null, ApiError>((resume) => void answers.push(resume)) },
        h.ticker,
        h.toasts,
      ),
    )
    const quote: BondQuote = { amount_token: 10, amount_ton: 1, tariff_days: 30, daily_reward: 1, max_reward: 30, expected_reward: 30 }
    const first = bonds.preview(0.5, 30)
    const second = bonds.preview(10, 30)
    answers[1]!(Effect.succeed(quote))
    await second
    answers[0]!(Effect.fail(tooLittle))
    await first
    expect(bonds.refusalFor(10, 30)).toBeNull()
    expect(bonds.quoteFor(10, 30)).toEqual(quote)
    expect(bonds.refusalFor(0.5, 30)).toBeNull()
  })

  it('bonds: a quote that never reached the server is a toast, not a refusal in place', async () => {
    const h = stateHarness()
    const bonds = bondQuotesOf(h.bonds())
    h.api.failWith('calculateMint', new NetworkError({ cause: 'ECONNREFUSED' }))
    await bonds.preview(10, 30)
    expect(bonds.refusalFor(10, 30)).toBeNull()
    expect(toastTexts(h)).toHaveLength(1)
    expect(h.platform.haptics).toEqual(['error'])
  })

  it('staking: the refusal is kept with the mint it was for', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 4 })]
    const quotes = stakeQuotesOf(h.bonds())
    h.api.failWith('calculateStake', new RequestRejected({ status: 400, msg: 'Only an active bond can be staked' }))
    await quotes.preview(toId(4))
    expect(quotes.refusal).toBe('Only an active bond can be staked')
    expect(toastTexts(h)).toEqual([])
    h.api.recover('calculateStake')
    await quotes.preview(toId(4))
    expect(quotes.refusal).toBeNull()
    expect(quotes.canStake(toId(4))).toBe(true)
  })

  it('re-bonding: the refusal is for this source, amount and term only', async () => {
    const h = stateHarness()
    const farming = new FarmingState(h.uc, h.bonds())
    h.api.failWith('calculateFarming', new RequestRejected({ status: 422, msg: 'amount must be at most 1000000' }))
    await farming.preview(2_000_000, 30)
    expect(farming.refusalFor(2_000_000, 30)).toBe('amount must be at most 1000000')
    expect(farming.refusalFor(2_000_000, 60)).toBeNull()
    expect(toastTexts(h)).toEqual([])
    expect(h.platform.haptics).toEqual([])
    await farming.chooseSource('referral')
    expect(farming.refusalFor(2_000_000, 30)).toBeNull()
  })

  it('selling: the refusal is for this amount, to a valid address', async () => {
    const h = stateHarness()
    const sell = new SellState(h.uc, { refresh: async () => null })
    h.api.failWith('calculateWithdraw', tooLittle)
    await sell.preview(0.5, ADDRESS)
    expect(sell.refusalFor(0.5, ADDRESS)).toBe('amount must be at least 1')
    expect(sell.refusalFor(0.5, 'not-an-address')).toBeNull()
    expect(sell.refusalFor(2, ADDRESS)).toBeNull()
    expect(toastTexts(h)).toEqual([])
    expect(h.platform.haptics).toEqual([])
  })
})
