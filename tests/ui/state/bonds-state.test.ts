import { Effect } from 'effect'
import { reaction } from 'mobx'
import { describe, expect, it } from 'vitest'
import { type ApiError, type FarmingActivation, type Id, type MintId, RequestRejected, toId, type StakeQuote } from '../../../core/index.ts'
import { BondsState } from '../../../ui/features/bonds/bonds-state.ts'
import { FarmingState } from '../../../ui/features/farming/farming-state.ts'
import { aMint, aStake } from '../../core/fakes/records.ts'
import { stakeQuotesOf, stateHarness, toastTexts } from './harness.ts'

describe('BondsState', () => {
  it('buys once however often the button is pressed while a purchase is in flight', async () => {
    const h = stateHarness()
    h.chain.changeAfterReads(1, h.wallet.account()!.address, 4_000_000_000n)
    const bonds = h.bonds()

    const presses = await Promise.all([bonds.bondList.buy(100, 30), bonds.bondList.buy(100, 30), bonds.bondList.buy(100, 30)])

    expect(h.api.callsTo('createMint')).toHaveLength(1)
    expect(h.wallet.transactions).toHaveLength(1)
    expect(presses.filter(Boolean)).toHaveLength(1)
    expect(bonds.bondList.isSaving).toBe(false)
    expect(bonds.bondList.mints.map((m) => m.status)).toEqual(['pending'])
    expect(toastTexts(h)).toContain('Transaction is being processed')
  }, 60_000)

  it('a pending bond hidden by a newer pending one shows again once that one is paid, as a fresh list would show it', async () => {
    const h = stateHarness()
    const now = h.ticker.now
    h.api.mintList = [aMint({ id: 56, status: 'pending', created_at: now - 20, amount_token: 22.95, tariff_days: 10 })]
    const bonds = h.bonds()
    await bonds.refresh()
    const shown = () => bonds.bondList.visibleMints.map((m) => `${m.id}:${m.status}`)
    expect(shown()).toEqual(['56:pending'])
    // Another bond is ordered (on another device): only the newest pending one shows (spec §4).
    const newer = aMint({ id: 61, status: 'pending', created_at: now - 5, amount_token: 6.66, tariff_days: 60 })
    bonds.applyLiveMint(newer)
    expect(shown()).toEqual(['61:pending'])
    // It is paid: the older pending bond is the newest pending one again, as the server's list says.
    bonds.applyLiveMint({ ...newer, status: 'active' })
    expect(shown().sort()).toEqual(['56:pending', '61:active'])
    h.api.mintList = [h.api.mintList[0]!, { ...newer, status: 'active' }]
    const fresh = h.bonds()
    await fresh.refresh()
    expect(fresh.bondList.visibleMints.map((m) => `${m.id}:${m.status}`).sort()).toEqual(shown().sort())
  })

  it('a re-read that brings nothing new is no change to the lists a screen shows; a changed bond is', async () => {
    const h = stateHarness()
    const now = h.ticker.now
    h.api.mintList = [aMint({ id: 7, status: 'active', created_at: now - 600 }), aMint({ id: 8, status: 'active', created_at: now - 300 })]
    h.api.stakeList = [aStake({ id: 3, status: 'active', created_at: now - 900 })]
    const bonds = h.bonds()
    await bonds.refresh()
    // What a screen reads: the bonds shown and the stakes. Each reaction runs when its list changes.
    const seen: string[] = []
    const stop = [
      reaction(() => bonds.bondList.visibleMints, () => void seen.push('bonds')),
      reaction(() => bonds.stakeList.stakes, () => void seen.push('stakes')),
    ]
    const row7 = bonds.bondList.visibleMints.find((m) => m.id === toId(7))
    expect(row7).toBeDefined()
    // The socket's greeting reads everything again: the same bonds and stakes, as new objects.
    await bonds.refresh()
    expect(seen).toEqual([])
    // One bond moved on: the bonds list changes, its other row is the same record as before.
    h.api.mintList = [{ ...h.api.mintList[0]! }, { ...h.api.mintList[1]!, status: 'completed' }]
    await bonds.refresh()
    expect(seen).toEqual(['bonds'])
    expect(bonds.bondList.visibleMints.find((m) => m.id === toId(7))).toBe(row7)
    expect(bonds.bondList.visibleMints.find((m) => m.id === toId(8))?.status).toBe('completed')
    for (const s of stop) s()
  })

  it('keeps a bond that went live while the wallet balance was being watched', async () => {
    const h = stateHarness()
    const bonds = h.bonds()
    // The payment lands and the live event arrives before the purchase's balance watch ends.
    h.chain.changeAfterReads(1, h.wallet.account()!.address, 4_000_000_000n)
    const buying = bonds.bondList.buy(100, 30)
    await new Promise((r) => setTimeout(r, 50))
    expect(bonds.bondList.mints.map((m) => m.status)).toEqual(['pending'])
    bonds.applyLiveMint({ ...bonds.bondList.mints[0]!, status: 'active' })
    await buying
    expect(bonds.bondList.mints.map((m) => m.status)).toEqual(['active'])
  }, 60_000)

  it("a bond that went live before the wallet's answer came back is announced, with no 'being processed' after it", async () => {
    const h = stateHarness()
    h.chain.changeAfterReads(1, h.wallet.account()!.address, 4_000_000_000n)
    const bonds = h.bonds()
    // A fast chain: the payment is credited and its live event arrives while the wallet's answer is on its way.
    h.wallet.onSigned = () => bonds.applyLiveMint({ ...bonds.bondList.mints[0]!, status: 'active' })
    await bonds.bondList.buy(100, 30)
    expect(toastTexts(h)).toEqual(['New Bond created'])
    expect(bonds.bondList.mints.map((m) => m.status)).toEqual(['active'])
  }, 60_000)

  it('a refetch that was read before a live bond arrived does not take the bond back', async () => {
    const h = stateHarness()
    let answer = () => {}
    const held = new Promise<void>((r) => (answer = r))
    // The server reads the lists now; the answer reaches the app only later.
    const late = <A, E>(e: Effect.Effect<A, E>) => Effect.flatMap(e, (a) => Effect.promise(() => held.then(() => a)))
    const bonds = new BondsState(
      { ...h.uc, loadMintRecords: () => late(h.uc.loadMintRecords()), loadStakeRecords: () => late(h.uc.loadStakeRecords()) },
      h.ticker,
      h.toasts,
    )
    const refreshing = bonds.refresh()
    const now = Math.floor(h.clock.nowMs() / 1000)
    bonds.applyLiveMint(aMint({ id: 5, status: 'pending', created_at: now }))
    bonds.applyLiveStake(aStake({ id: 6, status: 'active' }))
    answer()
    await refreshing
    expect(bonds.bondList.mints.map((m) => [m.id, m.status])).toEqual([['5', 'pending']])
    expect(bonds.stakeList.stakes.map((s) => [s.id, s.status])).toEqual([['6', 'active']])

    // Once nothing is in flight, a refetch is the server's list as it is.
    h.api.mintList = [aMint({ id: 5, status: 'canceled', created_at: now })]
    await new BondsState(h.uc, h.ticker, h.toasts).refresh()
    await bonds.bondList.refreshMints()
    expect(bonds.bondList.mints.map((m) => [m.id, m.status])).toEqual([['5', 'canceled']])
  })

  it('once the payment is out, asks to let the bot tell the user about it; a refused payment asks nothing', async () => {
    const h = stateHarness()
    h.platform.setLaunch({ ...h.platform.launch()!, allowsWriteToPm: false })
    const bonds = h.bonds()
    h.wallet.signOutcome = 'rejects'
    await bonds.bondList.buy(100, 30)
    expect(h.platform.writeAccessRequests).toBe(0)
    h.wallet.signOutcome = 'signs'
    h.chain.changeAfterReads(1, h.wallet.account()!.address, 4_000_000_000n)
    await bonds.bondList.buy(100, 30)
    expect(h.platform.writeAccessRequests).toBe(1)
  }, 60_000)

  it('sends an idempotency key with each purchase', async () => {
    const h = stateHarness()
    h.chain.changeAfterReads(1, h.wallet.account()!.address, 1n)
    const bonds = h.bonds()
    await bonds.bondList.buy(100, 30)
    expect(h.api.callsTo('createMint')[0]?.options?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
  }, 60_000)

  it('after a refused signature shows the wallet message and clears pending bonds and stakes', async () => {
    const h = stateHarness()
    h.wallet.signOutcome = 'rejects'
    const bonds = h.bonds()
    bonds.stakeList.stakes = [aStake({ id: 9, status: 'pending', created_at: h.ticker.now })]

    expect(await bonds.bondList.buy(100, 30)).toBeNull()

    expect(toastTexts(h)).toEqual(['Transaction was not sent'])
    expect(h.platform.haptics).toContain('error')
    expect(bonds.bondList.mints.filter((m) => m.status === 'pending')).toEqual([])
    expect(bonds.stakeList.stakes).toEqual([])
  })

  it('without a wallet says so and creates nothing', async () => {
    const h = stateHarness()
    await Effect.runPromise(h.wallet.disconnect())
    const bonds = h.bonds()
    await bonds.bondList.buy(100, 30)
    expect(toastTexts(h)).toEqual(['Wallet was not connected'])
    expect(h.api.callsTo('createMint')).toEqual([])
  })

  it('merges a live bond, drops its pending twin and announces it', () => {
    const h = stateHarness()
    const bonds = h.bonds()
    bonds.bondList.mints = [aMint({ id: 5, status: 'pending', created_at: h.ticker.now - 10 }), aMint({ id: 1 })]

    bonds.applyLiveMint(aMint({ id: 5, status: 'active', created_at: h.ticker.now - 10 }))

    expect(bonds.bondList.mints.map((m) => [m.id, m.status])).toEqual([
      ['5', 'active'],
      ['1', 'active'],
    ])
    expect(toastTexts(h)).toEqual(['New Bond created'])
  })

  it('says "via Farming" for the bond a farming activation brings, once', async () => {
    const h = stateHarness()
    const bonds = h.bonds()
    bonds.expectFarmingBond()
    bonds.applyLiveMint(aMint({ id: 7 }))
    await bonds.settleFarmingBond(true)
    bonds.applyLiveMint(aMint({ id: 8 }))
    expect(toastTexts(h)).toEqual(['New Bond created via Farming', 'New Bond created'])
  })

  /** A farming activation whose call stays out until `answer` is called, wired to the bonds as the app wires them. */
  const activationInFlight = (h: ReturnType<typeof stateHarness>) => {
    const bonds = h.bonds()
    let answer: (a: FarmingActivation) => void = () => {}
    const answered = new Promise<FarmingActivation>((resolve) => (answer = resolve))
    const farming = new FarmingState(
      { ...h.uc, checkFarmCode: () => Effect.promise(() => answered) },
      bonds,
    )
    const activating = farming.activate('FARM1234')
    return { bonds, farming, activating, answer }
  }

  it('sets the farming flag only once the activation succeeded: the bond that came live during the call is then "via Farming"', async () => {
    const h = stateHarness()
    const a = activationInFlight(h)
    expect(a.bonds.announcements.viaFarming).toBe(false)
    a.bonds.applyLiveMint(aMint({ id: 31 }))
    expect(a.bonds.announcements.viaFarming).toBe(false)
    expect(toastTexts(h)).toEqual([])
    expect(a.bonds.bondList.mints.map((m) => m.id)).toEqual(['31'])

    a.answer({ status: 'ACTIVE', message: null, mint_details: { tariff_days: 10, amount_token: 5, amount_ton: 0.1 } })
    await a.activating
    expect(toastTexts(h)).toEqual(['New Bond created via Farming'])
    expect(a.bonds.announcements.viaFarming).toBe(false)
    a.bonds.applyLiveMint(aMint({ id: 32 }))
    expect(toastTexts(h)).toEqual(['New Bond created via Farming', 'New Bond created'])
  })

  it.each([
    ['REACHED', { status: 'REACHED', message: 'All used', mint_details: null }],
    ['REVOKED', { status: 'REVOKED', message: null, mint_details: null }],
  ] as const)('a %s activation never sets the flag: a bond bought meanwhile is announced plainly', async (_, outcome) => {
    const h = stateHarness()
    const a = activationInFlight(h)
    a.bonds.applyLiveMint(aMint({ id: 41 }))
    a.answer(outcome)
    await a.activating
    expect(toastTexts(h)).toEqual(['New Bond created'])
    expect(a.bonds.announcements.viaFarming).toBe(false)
    expect(a.farming.activation?.status).toBe(outcome.status)
  })

  it('spends the farming flag when a repeated activation brings no new bond', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 4, status: 'active' })]
    const bonds = h.bonds()
    await bonds.refresh()
    bonds.expectFarmingBond()
    await bonds.settleFarmingBond(true)
    bonds.applyLiveMint(aMint({ id: 10 }))
    expect(toastTexts(h)).toEqual(['New Bond created'])
  })

  it('counts "earned today" from the start of the day, however recently the stake was settled', () => {
    const h = stateHarness(1_700_006_400_000) // 06:40 UTC… of a day starting at 1_699_920_000 + 86_400 × k
    const bonds = h.bonds()
    const now = h.ticker.now
    const dayStart = now - (now % 86_400)
    bonds.stakeList.stakes = [aStake({ id: 1, created_at: dayStart - 86_400, last_updated_at: now - 5, total_amount: 8_640, daily_reward: 1, max_reward: 1e6 })]
    // 8640 × 1 % a day = 0.001 a second, since the start of the day
    expect(bonds.stakeList.earnedToday).toBeCloseTo(0.001 * (now - dayStart), 6)
  })

  it('gives the bonds list anew only when a bond comes or goes, not on every tick', () => {
    const h = stateHarness()
    const bonds = h.bonds()
    bonds.bondList.mints = [aMint({ id: 1 }), aMint({ id: 2, status: 'pending', created_at: h.ticker.now - 60 })]
    const lists: number[][] = []
    const stop = reaction(
      () => bonds.bondList.visibleMints,
      (list) => lists.push(list.map((m) => Number(m.id))),
    )
    for (let i = 0; i < 30; i++) {
      h.clock.advance(1_000)
      h.ticker.tick()
    }
    expect(lists).toEqual([])

    // Three minutes after it was made, the unpaid bond leaves the list: one new list.
    for (let i = 0; i < 100; i++) {
      h.clock.advance(1_000)
      h.ticker.tick()
    }
    stop()
    expect(lists).toEqual([[1]])
  })

  it('clears the farming flag when the activation gave no bond', async () => {
    const h = stateHarness()
    const bonds = h.bonds()
    bonds.expectFarmingBond()
    await bonds.settleFarmingBond(false)
    bonds.applyLiveMint(aMint({ id: 9 }))
    expect(toastTexts(h)).toEqual(['New Bond created'])
  })

  it('shows the farming bond even when its live event went out before the socket signed in, and announces it once', async () => {
    const h = stateHarness()
    const bonds = h.bonds()
    h.api.mintList = [aMint({ id: 21, status: 'active' })]
    bonds.expectFarmingBond()
    await bonds.settleFarmingBond(true)
    expect(bonds.bondList.mints.map((m) => m.id)).toEqual(['21'])
    expect(toastTexts(h)).toEqual(['New Bond created via Farming'])
    bonds.applyLiveMint(aMint({ id: 21, status: 'active' }))
    expect(toastTexts(h)).toEqual(['New Bond created via Farming'])
  })

  it('announces a live stake and refetches the mints', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 1, status: 'move_to_staking' })]
    const bonds = h.bonds()
    bonds.applyLiveStake(aStake({ id: 3 }))
    await new Promise((r) => setTimeout(r, 0))
    expect(toastTexts(h)).toEqual(['New Stake created'])
    expect(h.api.callsTo('mints')).toHaveLength(1)
    expect(bonds.bondList.mints.map((m) => m.status)).toEqual(['move_to_staking'])
  })

  it('cancels or stakes a bond once per press', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 1 })]
    const bonds = h.bonds()
    await bonds.refresh()
    await Promise.all([bonds.stakeList.stake(toId(1)), bonds.stakeList.stake(toId(1))])
    expect(h.api.callsTo('createStake')).toHaveLength(1)
  })

  it('ticks the reward and "earned today" with the second ticker', () => {
    const h = stateHarness()
    const bonds = h.bonds()
    const start = h.ticker.now
    bonds.stakeList.stakes = [aStake({ id: 1, created_at: start, total_amount: 8_640, daily_reward: 1, max_reward: 1e6 })]
    const before = bonds.stakeList.earnedToday
    h.clock.advance(10_000)
    h.ticker.tick()
    // 8640 × 1 % a day = 0.001 a second
    expect(bonds.stakeList.earnedToday - before).toBeCloseTo(0.01, 9)
    expect(bonds.rewardOf(bonds.stakeList.stakes[0]!)).toBeCloseTo(0.01, 9)
    expect(bonds.stakeList.earningPerSecond).toBeCloseTo(0.001, 12)
  })
})

describe('BondsState stake quote (select mint → calculate → create)', () => {
  /** Use cases whose stake quotes answer only when the test says, in any order. */
  const scripted = () => {
    const h = stateHarness()
    const answers = new Map<string, (q: StakeQuote | null) => void>()
    const quoteOf = (id: MintId): StakeQuote => ({
      staking_id: id,
      total_amount: 50,
      daily_reward: 0.9,
      hold_bonus: 0,
      collective_bonus: 0.1,
      investment_bonus: 0,
      max_reward: 15,
      tariff_days: 30,
    })
    const bonds = new BondsState(
      {
        ...h.uc,
        quoteStake: (id) => Effect.callback<StakeQuote | null, ApiError>((resume) => void answers.set(String(id), (q) => resume(Effect.succeed(q)))),
      },
      h.ticker,
      h.toasts,
    )
    return { h, bonds, quotes: stakeQuotesOf(bonds), answer: (id: MintId, q: StakeQuote | null = quoteOf(id)) => answers.get(String(id))!(q), quoteOf }
  }

  it('cannot be confirmed until the server quote for the picked bond has arrived', async () => {
    const { quotes, answer, quoteOf } = scripted()
    const asked = quotes.preview(toId(7))
    expect(quotes.status).toBe('loading')
    expect(quotes.quoteFor(toId(7))).toBeNull()
    expect(quotes.canStake(toId(7))).toBe(false)
    answer(toId(7))
    await asked
    expect(quotes.quoteFor(toId(7))).toEqual(quoteOf(toId(7)))
    expect(quotes.canStake(toId(7))).toBe(true)
    // The quote is for bond 7 only.
    expect(quotes.quoteFor(toId(8))).toBeNull()
    expect(quotes.canStake(toId(8))).toBe(false)
  })

  it('drops the answer for a bond the user has moved away from, whatever order the answers come in', async () => {
    const { quotes, answer, quoteOf } = scripted()
    const first = quotes.preview(toId(1))
    const second = quotes.preview(toId(2))
    answer(toId(2))
    await second
    answer(toId(1))
    await first
    expect(quotes.quoteFor(toId(2))).toEqual(quoteOf(toId(2)))
    expect(quotes.quoteFor(toId(1))).toBeNull()
    expect(quotes.canStake(toId(1))).toBe(false)

    // Back to bond 1: its old quote is not reused; a new one is asked for.
    const again = quotes.preview(toId(1))
    expect(quotes.canStake(toId(1))).toBe(false)
    expect(quotes.canStake(toId(2))).toBe(false)
    answer(toId(1))
    await again
    expect(quotes.canStake(toId(1))).toBe(true)
  })

  it('a refused quote leaves the stake unconfirmable until a retry succeeds', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 4 })]
    const quotes = stakeQuotesOf(h.bonds())
    h.api.failWith('calculateStake', new RequestRejected({ status: 400, msg: 'Only an active bond can be staked; this one is pending' }))
    await quotes.preview(toId(4))
    expect(quotes.status).toBe('failed')
    expect(quotes.canStake(toId(4))).toBe(false)
    h.api.recover('calculateStake')
    await quotes.preview(toId(4))
    expect(quotes.canStake(toId(4))).toBe(true)
    expect(h.api.callsTo('calculateStake').map((c) => c.input)).toEqual([{ staking_id: '4' }, { staking_id: '4' }])
  })

  it('is not confirmable while that bond is being staked', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 4 })]
    const bonds = h.bonds()
    const quotes = stakeQuotesOf(bonds)
    await quotes.preview(toId(4))
    const staking = bonds.stakeList.stake(toId(4))
    expect(quotes.canStake(toId(4))).toBe(false)
    await staking
  })
})

describe('BondsState pending stakes', () => {
  it('shows only the newest pending stake, and only for 3 minutes, re-checked every second', () => {
    const h = stateHarness()
    const bonds = h.bonds()
    const now = h.ticker.now
    bonds.stakeList.stakes = [
      aStake({ id: 3, status: 'pending', created_at: now - 30 }),
      aStake({ id: 2, status: 'pending', created_at: now - 60 }),
      aStake({ id: 1, status: 'active', created_at: now - 600 }),
    ]
    const lists: number[][] = []
    const stop = reaction(
      () => bonds.stakeList.visibleStakes,
      (list) => lists.push(list.map((s) => Number(s.id))),
      { fireImmediately: true },
    )
    // 149 seconds on, the newest pending stake is 179 s old: still shown, and no new list on any tick.
    for (let i = 0; i < 149; i++) {
      h.clock.advance(1_000)
      h.ticker.tick()
    }
    expect(lists).toEqual([[3, 1]])
    // At 180 s it has aged out.
    h.clock.advance(1_000)
    h.ticker.tick()
    stop()
    expect(lists).toEqual([[3, 1], [1]])
  })
})

