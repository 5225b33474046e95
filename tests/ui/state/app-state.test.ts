import { describe, expect, it, vi } from 'vitest'
import { composeApp } from '../../../composition-root.ts'
import { type CandleSocket, type LiveEvent, NetworkError, type ReconnectingSocket, ServerFailed, type SocketStatus } from '../../../core/index.ts'
import { FarmingState } from '../../../ui/features/farming/farming-state.ts'
import { HistoryState } from '../../../ui/features/history/history-state.ts'
import { MaintenanceState } from '../../../ui/features/maintenance/maintenance-state.ts'
import { MarketState } from '../../../ui/features/market/market-state.ts'
import { ReferralsState } from '../../../ui/features/referrals/referrals-state.ts'
import { SellState } from '../../../ui/features/sell/sell-state.ts'
import { TasksState } from '../../../ui/features/tasks/tasks-state.ts'
import { WalletState } from '../../../ui/features/wallet/wallet-state.ts'
import { type AppConfig, AppState, type AppDeps } from '../../../ui/app/app-state.ts'
import { routeLiveEvent } from '../../../ui/app/event-router.ts'
import type { PortBindings } from '../../../core/ports/core-ports.ts'
import { ErrorFeedback } from '../../../ui/state/error-feedback.ts'
import { firstFiguresIn } from '../../../ui/state/first-figures.ts'
import { Later } from '../../../ui/state/later.ts'
import { SessionState } from '../../../ui/state/session-state.ts'
import { FakeChainReader } from '../../core/fakes/fake-chain-reader.ts'
import { answer, FakeHttpTransport, ok } from '../../core/fakes/fake-http-transport.ts'
import { FakePlatform, launchData } from '../../core/fakes/fake-platform.ts'
import { FakeSocketFactory } from '../../core/fakes/fake-socket-factory.ts'
import { FixedClock } from '../../core/fakes/fixed-clock.ts'
import { MemoryKeyValueStore, MemorySessionStore } from '../../core/fakes/memory-stores.ts'
import { aMint, anOperation, aTask, aUser } from '../../core/fakes/records.ts'
import { ScriptedWallet } from '../../core/fakes/scripted-wallet.ts'
import { stateHarness, toastTexts } from './harness.ts'

/** A socket that records what the app asked of it; the test pushes events through `emit`. */
const recordingSocket = () => {
  const calls: string[] = []
  let emit: (e: LiveEvent) => void = () => {}
  let status: (s: SocketStatus) => void = () => {}
  const socket: CandleSocket = {
    send: (t) => calls.push(`send ${t}`),
    ensureOpen: () => calls.push('ensureOpen'),
    status: () => 'open',
    close: () => calls.push('close'),
    switchInterval: (i) => calls.push(`interval ${i}`),
  }
  return {
    calls,
    socket,
    push: (e: LiveEvent) => emit(e),
    /** The socket's status moves (the reconnecting socket reports each change). */
    status: (s: SocketStatus) => status(s),
    open: (onEvent: (e: LiveEvent) => void, onStatus?: (s: SocketStatus) => void): ReconnectingSocket => {
      emit = onEvent
      if (onStatus) status = onStatus
      calls.push('open')
      return socket
    },
  }
}

/** Timers the test runs by hand: what the app scheduled, after how long, and whether it was cancelled. */
const manualTimers = () => {
  const timers: Array<{ ms: number; run: () => void; cancelled: boolean }> = []
  return {
    timers,
    schedule: (run: () => void, ms: number) => {
      const t = { ms, run, cancelled: false }
      timers.push(t)
      return () => void (t.cancelled = true)
    },
  }
}

/** What the server sends first once it has checked a socket's token (docs/api.md): from then on, events reach it. */
const greeting = (balance: number): LiveEvent => ({
  event: 'user:balance',
  data: { balance_token: balance, task_balance: 0, referral_balance: 0, hold_bonus: 0, investment_bonus: 0 },
})

/**
 * The app over the harness. Its other screens' view models are made at once, or with `later`, as
 * the browser makes them: when first asked for, and only once the test calls `make()`.
 */
const appOver = (h: ReturnType<typeof stateHarness>, timers = manualTimers(), extra: Pick<AppDeps, 'yieldTask' | 'firstScreen'> = {}, later = false) => {
  const main = recordingSocket()
  const candles = recordingSocket()
  const bonds = h.bonds()
  const session = new SessionState(h.uc)
  const made = () => ({
    farming: new FarmingState(h.uc, bonds),
    tasks: new TasksState(h.uc, session),
    referrals: new ReferralsState(h.uc),
    history: new HistoryState(h.uc),
    sell: new SellState(h.uc, session),
  })
  const asked = { times: 0, make: () => {} }
  const screens = later
    ? new Later(() => {
        asked.times++
        return new Promise<ReturnType<typeof made>>((resolve) => (asked.make = () => resolve(made())))
      })
    : Later.of(made())
  const app = new AppState(
    {
      platform: h.platform,
      clock: h.clock,
      config: { botUsername: 'axiom_bot', communityUrl: 'https://t.me/axiom' },
      uc: { ...h.uc, openLiveFeed: (onEvent, onStatus) => main.open(onEvent, onStatus) },
      background: h.background,
      schedule: timers.schedule,
      ...extra,
    },
    {
      session,
      maintenance: new MaintenanceState(h.uc, h.platform, 10),
      bonds,
      market: new MarketState({ ...h.uc, openCandleFeed: () => candles.open(() => {}) as CandleSocket }),
      screens,
      toasts: h.toasts,
      ticker: h.ticker,
      wallet: new WalletState(h.uc),
      errors: new ErrorFeedback(h.toasts, h.platform),
    },
  )
  return { app, main, candles, timers: timers.timers, screensAsked: asked }
}

describe('AppState', () => {
  it('starts: signs in, loads the data, opens the sockets and lands ready', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 1 })]
    h.api.taskList = [aTask({ task_id: 1 }), aTask({ task_id: 2, status: 'CLAIMED' })]
    const { app, main, candles } = appOver(h)

    expect(await app.start('')).toBe('ready')
    app.stop()

    expect(app.s.session.user?.ref_code).toBe('REF42')
    expect(app.s.bonds.bondList.mints).toHaveLength(1)
    expect(app.s.screens.current!.tasks.badge).toBe(1)
    expect(main.calls[0]).toBe('open')
    expect(candles.calls[0]).toBe('open')
    expect(h.session.get('auth_token')).toBe('registered-token')
  })

  it('with a browser task between steps, is ready at once with the bonds asked, then asks one more thing per task: the price first', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 1 })]
    const waiting: Array<() => void> = []
    const { app, main } = appOver(h, manualTimers(), { yieldTask: () => new Promise<void>((resolve) => waiting.push(resolve)) })
    const LISTS = ['mints', 'currentPrice', 'farmingLinks', 'tasks', 'referrals'] as const
    const asked = () => [...LISTS.filter((m) => h.api.callsTo(m).length > 0), ...(main.calls.includes('open') ? ['socket'] : [])]
    let finished = false
    // Settled: the start is parked on its next task, or done.
    const settle = () => vi.waitFor(() => expect(waiting.length > 0 || finished).toBe(true), { interval: 1 })

    const started = app.start('').finally(() => (finished = true))
    await vi.waitFor(() => expect(app.phase).toBe('ready'))
    await settle()
    expect(asked()).toEqual(['mints'])
    const seen: string[][] = [asked()]
    while (waiting.length > 0) {
      waiting.shift()!()
      await settle()
      seen.push(asked())
    }
    expect(await started).toBe('ready')
    app.stop()
    // Each task added at most one request (or the socket), the price second.
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.length - seen[i - 1]!.length).toBeLessThanOrEqual(1)
    expect(seen.find((s) => s.length === 2)).toEqual(['mints', 'currentPrice'])
    expect(seen.at(-1)!.sort()).toEqual(['currentPrice', 'farmingLinks', 'mints', 'referrals', 'socket', 'tasks'])
    expect(app.s.bonds.bondList.mints).toHaveLength(1)
  })

  it("with firstScreen, only the bonds and the price are asked for until the first screen has painted with them; then the rest and the sockets", async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 1 })]
    let paint: () => void = () => {}
    let bondsListedAtPaint: boolean | null = null
    let priceAtPaint: unknown = null
    const firstScreen = () =>
      new Promise<void>((resolve) => {
        bondsListedAtPaint = app.s.bonds.listed
        priceAtPaint = app.s.market.price
        paint = resolve
      })
    const { app, main } = appOver(h, manualTimers(), { yieldTask: () => new Promise<void>((resolve) => setTimeout(resolve, 0)), firstScreen })
    const LISTS = ['mints', 'stakes', 'mintPlans', 'currentPrice', 'candles', 'financialStats', 'farmingLinks', 'tasks', 'referrals'] as const
    const asked = () => [...LISTS.filter((m) => h.api.callsTo(m).length > 0), ...(main.calls.includes('open') ? ['socket'] : [])]

    const started = app.start('')
    await vi.waitFor(() => expect(app.phase).toBe('ready'))
    // The start waits for the first screen to paint.
    await vi.waitFor(() => expect(bondsListedAtPaint).not.toBeNull(), { interval: 1 })
    // The dashboard is on screen with the balances, the bonds and the price; nothing else has been asked for.
    expect(asked()).toEqual(['mints', 'stakes', 'mintPlans', 'currentPrice'])
    expect(bondsListedAtPaint).toBe(true)
    expect(priceAtPaint).not.toBeNull()
    expect(app.s.bonds.bondList.mints).toHaveLength(1)
    paint()
    expect(await started).toBe('ready')
    expect(asked()).toEqual([...LISTS, 'socket'])
    expect(h.api.callsTo('currentPrice')).toHaveLength(1)
    app.stop()
  })

  it("with firstScreen, the other screens' view models are made after the first screen has painted, their lists asked then, and the socket opened after that", async () => {
    const h = stateHarness()
    let paint: () => void = () => {}
    const painted = new Promise<void>((resolve) => (paint = resolve))
    const settle = () => new Promise((r) => setTimeout(r, 0))
    const { app, main, screensAsked } = appOver(h, manualTimers(), { yieldTask: () => settle().then(() => undefined), firstScreen: () => painted }, true)
    const others = () => [h.api.callsTo('farmingLinks'), h.api.callsTo('tasks'), h.api.callsTo('referrals')].map((c) => c.length)
    const started = app.start('')
    await vi.waitFor(() => expect(h.api.callsTo('currentPrice')).toHaveLength(1))
    await settle()
    expect(screensAsked.times).toBe(0)

    paint()
    await vi.waitFor(() => expect(screensAsked.times).toBe(1))
    await settle()
    expect(app.s.screens.current).toBeNull()
    // The socket waits for them: its first greeting's background read would make their reads quiet.
    expect(main.calls).not.toContain('open')
    // Back in view meanwhile: the dashboard's lists again, not the others (theirs come once made).
    h.clock.advance(10_000)
    await app.onVisible()
    expect(h.api.callsTo('mints')).toHaveLength(2)
    expect(others()).toEqual([0, 0, 0])

    screensAsked.make()
    await vi.waitFor(() => expect(main.calls).toContain('open'))
    expect(others()[0]).toBe(1)
    expect(await started).toBe('ready')
    app.stop()
    expect(others()).toEqual([1, 1, 1])
    expect(screensAsked.times).toBe(1)
  })

  it('with firstScreen, a bond paid between the first read and the socket listening is read again once the server greets the socket', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 9, status: 'pending' })]
    const { app, main } = appOver(h, manualTimers(), {
      yieldTask: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
      firstScreen: () => Promise.resolve(),
    })
    const settle = () => new Promise((r) => setTimeout(r, 0))
    await app.start('')
    expect(app.s.bonds.bondList.mints.map((m) => [m.id, m.status])).toEqual([['9', 'pending']])
    // Paid while the app painted and the socket connected: its event went to nobody.
    h.api.mintList = [aMint({ id: 9, status: 'active' })]
    main.status('open')
    await settle()
    expect(h.api.callsTo('mints')).toHaveLength(1)
    main.push(greeting(77))
    await settle()
    expect(h.api.callsTo('mints')).toHaveLength(2)
    expect(app.s.bonds.bondList.mints.map((m) => [m.id, m.status])).toEqual([['9', 'active']])
    // Only the first greeting: later events read nothing.
    main.push(greeting(78))
    await settle()
    expect(h.api.callsTo('mints')).toHaveLength(2)
    expect(h.api.callsTo('me')).toHaveLength(1)
    app.stop()
  })

  it("the dashboard's first figures show together once the user, the bonds and the price are answered; a failed price does not hold the balances", async () => {
    for (const priceFails of [false, true]) {
      const h = stateHarness()
      if (priceFails) h.api.failWith('currentPrice', new ServerFailed({ msg: 'down' }))
      let shownAtPaint: boolean | null = null
      let paint: () => void = () => {}
      const { app } = appOver(h, manualTimers(), {
        yieldTask: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
        firstScreen: () =>
          new Promise<void>((resolve) => {
            shownAtPaint = firstFiguresIn(app.s)
            paint = resolve
          }),
      })
      expect(firstFiguresIn(app.s)).toBe(false)
      const started = app.start('')
      await vi.waitFor(() => expect(shownAtPaint).not.toBeNull())
      expect(shownAtPaint, priceFails ? 'the price failed' : 'all answered').toBe(true)
      expect(app.s.market.price === null).toBe(priceFails)
      paint()
      await started
      app.stop()
    }
  })

  it('shows maintenance instead of signing in, and reloads when it ends', async () => {
    const h = stateHarness()
    h.api.maintenanceDetail = 'Maintenance mode is enabled'
    const { app } = appOver(h)

    expect(await app.start('')).toBe('maintenance')
    expect(h.api.callsTo('register')).toEqual([])

    h.api.maintenanceDetail = 'Maintenance mode is disabled'
    await new Promise((r) => setTimeout(r, 50))
    app.stop()
    expect(h.platform.reloads).toBeGreaterThanOrEqual(1)
  })

  it('outside Telegram sends the user to the bot', async () => {
    const h = stateHarness()
    h.platform.launch = () => null
    const { app } = appOver(h)
    expect(await app.start('')).toBe('outside-platform')
    app.stop()
    expect(h.platform.redirects).toEqual(['https://t.me/axiom_bot'])
    expect(h.api.callsTo('register')).toEqual([])
  })

  it('routes live events to the states they change', async () => {
    const h = stateHarness()
    const { app, main } = appOver(h)
    await app.start('')
    main.push({ event: 'user:balance', data: { balance_token: 5, task_balance: 1, referral_balance: 2, hold_bonus: 0, investment_bonus: 0 } })
    main.push({ event: 'price_update', data: { price: 0.5, price_change_24h: 1, price_change_30d: 2 } })
    main.push({ event: 'user:mint', data: aMint({ id: 77 }) })
    app.stop()
    expect(app.s.session.user?.balance_token).toBe(5)
    expect(app.s.market.price?.price).toBe(0.5)
    expect(app.s.bonds.bondList.mints[0]?.id).toBe('77')
    expect(toastTexts(h)).toContain('New Bond created')
  })

  it('refetches the user and the lists when the main socket is back after a drop, not on its first open', async () => {
    const h = stateHarness()
    const { app, main } = appOver(h)
    await app.start('')
    main.status('connecting')
    main.status('open')
    await new Promise((r) => setTimeout(r, 0))
    expect(app.socketStatus).toBe('open')
    expect(app.s.bonds.bondList.mints).toEqual([])

    // While the socket was down, a bond became active and the balance moved: no event will tell.
    h.api.mintList = [aMint({ id: 9, status: 'active' })]
    h.api.user = aUser({ balance_token: 77 })
    main.status('closed')
    main.status('connecting')
    expect(app.s.bonds.bondList.mints).toEqual([])
    main.status('open')
    await new Promise((r) => setTimeout(r, 0))
    // Open, but not yet subscribed by the server: a read now could miss what is made before it is.
    expect(h.api.callsTo('mints')).toHaveLength(1)
    expect(app.s.bonds.bondList.mints).toEqual([])
    main.push(greeting(77))
    await new Promise((r) => setTimeout(r, 0))
    app.stop()
    expect(h.api.callsTo('mints')).toHaveLength(2)
    expect(app.s.bonds.bondList.mints.map((m) => [m.id, m.status])).toEqual([['9', 'active']])
    expect(app.s.session.user?.balance_token).toBe(77)
  })

  it('makes the reconnect refetch again after 1 s, 2 s, … while reads get no answer, without a toast or an emptied list', async () => {
    const h = stateHarness()
    h.api.mintList = [aMint({ id: 5, status: 'active' })]
    const { app, main, timers } = appOver(h)
    await app.start('')
    main.status('open')
    const settle = () => new Promise((r) => setTimeout(r, 0))

    // The backend is back but still failing: a 500 on the mints, no answer to the user.
    h.api.mintList = [aMint({ id: 5, status: 'active' }), aMint({ id: 9, status: 'active' })]
    h.api.user = aUser({ balance_token: 77 })
    h.api.failWith('mints', new ServerFailed({ msg: 'Bad gateway' }))
    h.api.failWith('me', new NetworkError({}))
    main.status('closed')
    main.status('open')
    main.push(greeting(77))
    await settle()
    expect(timers.map((t) => t.ms)).toEqual([1_000])
    timers[0]!.run()
    await settle()
    expect(timers.map((t) => t.ms)).toEqual([1_000, 2_000])
    // Nothing told, and the list is not emptied by the 500's fallback.
    expect(toastTexts(h)).toEqual([])
    expect(app.s.bonds.bondList.mints.map((m) => m.id)).toEqual(['5'])

    h.api.recover('mints')
    h.api.recover('me')
    timers[1]!.run()
    await settle()
    app.stop()
    expect(app.s.bonds.bondList.mints.map((m) => m.id).sort()).toEqual(['5', '9'])
    expect(app.s.session.user?.balance_token).toBe(77)
    expect(timers).toHaveLength(2)
    expect(toastTexts(h)).toEqual([])
  })

  it('gives up the reconnect refetch when the socket drops again, and a read the user makes later is told as ever', async () => {
    const h = stateHarness()
    const { app, main, timers } = appOver(h)
    await app.start('')
    main.status('open')
    const settle = () => new Promise((r) => setTimeout(r, 0))
    h.api.failWith('mints', new ServerFailed({ msg: 'Bad gateway' }))
    main.status('closed')
    main.status('open')
    main.push(greeting(77))
    await settle()
    expect(timers).toHaveLength(1)
    main.status('closed')
    expect(timers[0]!.cancelled).toBe(true)

    // Outside a background refetch, the §8 policy is unchanged: a 500 is told and resolves empty.
    await app.s.bonds.refresh()
    app.stop()
    expect(toastTexts(h)).toEqual(['Error: Bad gateway'])
  })

  it('refetches on becoming visible only when 10 s passed, and reopens the sockets', async () => {
    const h = stateHarness()
    const { app, main } = appOver(h)
    await app.start('')
    const mes = () => h.api.callsTo('me').length
    const before = mes()

    h.clock.advance(5_000)
    await app.onVisible()
    expect(mes()).toBe(before)
    h.clock.advance(5_000)
    await app.onVisible()
    app.stop()
    expect(mes()).toBe(before + 1)
    expect(main.calls.filter((c) => c === 'ensureOpen')).toHaveLength(2)
  })

  it('back in view after 10 s, refetches the history lists the user opened, at their page; never opened, asks nothing', async () => {
    const h = stateHarness()
    const { app } = appOver(h)
    await app.start('')
    h.clock.advance(10_000)
    await app.onVisible()
    expect(h.api.callsTo('operationsHistory')).toEqual([])
    expect(h.api.callsTo('withdrawHistory')).toEqual([])

    h.api.operations = Array.from({ length: 15 }, (_, i) => anOperation({ id: i + 1 }))
    await app.s.screens.current!.history.operations.goTo(1)
    await app.s.screens.current!.history.operations.next()
    expect(app.s.screens.current!.history.operations.items).toHaveLength(5)
    // Meanwhile, on another device: a sixth operation on page 2.
    h.api.operations = [...h.api.operations, anOperation({ id: 16 })]
    h.clock.advance(10_000)
    await app.onVisible()
    app.stop()
    expect(h.api.callsTo('operationsHistory').map((c) => (c.input as { page?: number }).page)).toEqual([1, 2, 2])
    expect(app.s.screens.current!.history.operations.page).toBe(2)
    expect(app.s.screens.current!.history.operations.items).toHaveLength(6)
    expect(h.api.callsTo('withdrawHistory')).toEqual([])
  })

  it('loads the financial stats with the dashboard and refetches them when the app is back in view', async () => {
    const h = stateHarness()
    h.api.stats = { total_users: 3, total_locked: 202 }
    const { app } = appOver(h)
    await app.start('')
    expect(app.s.market.stats).toEqual({ total_users: 3, total_locked: 202 })

    h.api.stats = { total_users: 4, total_locked: 702.5 }
    h.clock.advance(10_000)
    await app.onVisible()
    expect(app.s.market.stats).toEqual({ total_users: 4, total_locked: 702.5 })

    // A failed refetch keeps the figures on screen rather than blanking the card.
    h.api.failWith('financialStats', new ServerFailed({ msg: 'boom' }))
    h.clock.advance(10_000)
    await app.onVisible()
    app.stop()
    expect(h.api.callsTo('financialStats')).toHaveLength(3)
    expect(app.s.market.stats).toEqual({ total_users: 4, total_locked: 702.5 })
  })

  it('checks a farm code from the start page once', async () => {
    const h = stateHarness()
    h.api.activations.set('FARM1234', { status: 'ACTIVE', message: 'Welcome', mint_details: { tariff_days: 14, amount_token: 50, amount_ton: 1 } })
    const { app } = appOver(h)
    await app.start('?farm_code=FARM1234')
    await new Promise((r) => setTimeout(r, 0))
    expect(app.s.screens.current!.farming.activation?.status).toBe('ACTIVE')
    // No bond came with it in this fake backend: the flag is spent all the same.
    expect(app.s.bonds.announcements.viaFarming).toBe(false)

    const again = appOver(h)
    await again.app.start('?farm_code=FARM1234')
    await new Promise((r) => setTimeout(r, 0))
    app.stop()
    again.app.stop()
    expect(h.api.callsTo('farmingActivationStatus')).toHaveLength(1)
    expect(again.app.s.screens.current!.farming.activation).toBeNull()
  })

  it('holds a farm code while the user is not a community member: nothing is checked, and the code stays unchecked', async () => {
    const h = stateHarness()
    h.api.user = aUser({ community_participation: false })
    h.api.activations.set('FARM1234', { status: 'ACTIVE', message: 'Welcome', mint_details: { tariff_days: 14, amount_token: 50, amount_ton: 1 } })
    const { app } = appOver(h)
    await app.start('?farm_code=FARM1234')
    await new Promise((r) => setTimeout(r, 0))

    expect(app.s.session.mustJoinCommunity).toBe(true)
    expect(h.api.callsTo('farmingActivationStatus')).toEqual([])
    expect(app.s.screens.current!.farming.activation).toBeNull()
    app.stop()

    // Joined; 'Done' reloads the app, which starts again with the same launch: now the code is checked.
    h.api.user = aUser({ community_participation: true })
    const reloaded = appOver(h)
    await reloaded.app.start('?farm_code=FARM1234')
    await new Promise((r) => setTimeout(r, 0))
    reloaded.app.stop()
    expect(h.api.callsTo('farmingActivationStatus')).toHaveLength(1)
    expect(reloaded.app.s.screens.current!.farming.activation?.status).toBe('ACTIVE')
  })

  it('checks a held farm code as soon as a refetch finds the user a member, and not after the app stopped', async () => {
    const h = stateHarness()
    h.api.user = aUser({ community_participation: false })
    h.platform.launch = () => launchData({ startParam: 'farm_CODE5678' })
    h.api.activations.set('CODE5678', { status: 'REACHED', message: 'All used', mint_details: null })
    const { app } = appOver(h)
    await app.start('')
    h.api.user = aUser({ community_participation: true })
    await app.s.session.refresh()
    await new Promise((r) => setTimeout(r, 0))
    expect(app.s.screens.current!.farming.activation?.status).toBe('REACHED')
    app.stop()

    const stopped = appOver(h)
    h.api.user = aUser({ community_participation: false })
    await stopped.app.start('')
    stopped.app.stop()
    h.api.user = aUser({ community_participation: true })
    await stopped.app.s.session.refresh()
    await new Promise((r) => setTimeout(r, 0))
    expect(h.api.callsTo('farmingActivationStatus')).toHaveLength(1)
  })

  it('a referral start parameter is not a farm code', async () => {
    const h = stateHarness()
    h.platform.launch = () => launchData({ startParam: 'CODE5678' })
    const { app } = appOver(h)
    await app.start('')
    await new Promise((r) => setTimeout(r, 0))
    app.stop()
    expect(h.api.callsTo('farmingActivationStatus')).toEqual([])
    expect(h.api.callsTo('register')[0]!.input).toMatchObject({ ref_code: 'CODE5678' })
  })

  it('a start parameter farm_<code> also activates', async () => {
    const h = stateHarness()
    h.platform.launch = () => launchData({ startParam: 'farm_CODE5678' })
    h.api.activations.set('CODE5678', { status: 'REVOKED', message: null, mint_details: null })
    const { app } = appOver(h)
    await app.start('')
    await new Promise((r) => setTimeout(r, 0))
    app.stop()
    expect(app.s.screens.current!.farming.activation?.status).toBe('REVOKED')
  })
})

describe('a live event for a view model made later', () => {
  it("a sale's payout words before the sell view model is made reach it once it is, in order; after that at once", async () => {
    const h = stateHarness()
    const session = new SessionState(h.uc)
    const sell = new SellState(h.uc, session)
    let make: () => void = () => {}
    const screens = new Later(() => new Promise<{ sell: SellState }>((resolve) => (make = () => resolve({ sell }))))
    const bonds = h.bonds()
    const targets = { session, bonds, market: new MarketState(h.uc), screens }
    routeLiveEvent(targets, { event: 'chain:payment', data: { kind: 'sale', id: 41, state: 'sent' } })
    routeLiveEvent(targets, { event: 'chain:payment', data: { kind: 'sale', id: 41, state: 'paid' } })
    routeLiveEvent(targets, { event: 'chain:payment', data: { kind: 'sale', id: 42, state: 'sent' } })
    expect(sell.payoutOf(41)).toBeNull()
    make()
    await screens.load()
    await new Promise((r) => setTimeout(r, 0))
    expect([sell.payoutOf(41), sell.payoutOf(42)]).toEqual(['paid', 'sent'])
    routeLiveEvent(targets, { event: 'chain:payment', data: { kind: 'sale', id: 42, state: 'paid' } })
    expect(sell.payoutOf(42)).toBe('paid')
  })
})

describe("the composed app's other screens' view models", () => {
  it('are not made by composeApp, and are made once, on the first ask', async () => {
    const app = await composeApp(
      {
        http: new FakeHttpTransport(),
        sockets: new FakeSocketFactory(),
        session: new MemorySessionStore(),
        storage: new MemoryKeyValueStore(),
        clock: new FixedClock(),
        platform: new FakePlatform(),
        wallet: new ScriptedWallet(),
        chain: new FakeChainReader(),
      },
      { botUsername: 'axiom_bot', communityUrl: 'https://t.me/axiom' },
    )
    expect(app.s.screens.current).toBeNull()
    const [first, second] = await Promise.all([app.s.screens.load(), app.s.screens.load()])
    expect(first).toBe(second)
    expect(app.s.screens.current).toBe(first)
    expect(Object.keys(first).sort()).toEqual(['farming', 'history', 'referrals', 'sell', 'tasks'])
    expect(first.farming).toBeInstanceOf(FarmingState)
    expect(first.sell).toBeInstanceOf(SellState)
  })
})

/** composeApp makes the app at once without a yieldTask (tests); the browser makes the same app over several tasks. */
const COMPOSITIONS = [
  ['made at once', (ports: PortBindings, config: AppConfig) => composeApp(ports, config)],
  [
    'made over several tasks',
    async (ports: PortBindings, config: AppConfig) => {
      let tasks = 0
      const app = await composeApp(ports, config, { yieldTask: () => new Promise<void>((resolve) => setTimeout(() => resolve(void tasks++), 0)) })
      expect(tasks).toBeGreaterThanOrEqual(3)
      return app
    },
  ],
] as const

describe.each(COMPOSITIONS)('the composed app (%s) meeting maintenance in a call', (_, compose) => {
  /** The app as the browser entry composes it, over a scripted HTTP backend. */
  const composed = async () => {
    const http = new FakeHttpTransport()
    const platform = new FakePlatform()
    const app = await compose(
      {
        http,
        sockets: new FakeSocketFactory(),
        session: new MemorySessionStore({ auth_token: 'token-1' }),
        storage: new MemoryKeyValueStore(),
        clock: new FixedClock(),
        platform,
        wallet: new ScriptedWallet(),
        chain: new FakeChainReader(),
      },
      { botUsername: 'axiom_bot', communityUrl: 'https://t.me/axiom' },
    )
    return { app, http, platform }
  }

  it('a 503 "We are under maintenance" on an action shows the maintenance page at once, with no toast and no haptic; it reloads when maintenance ends', async () => {
    const { app, http, platform } = await composed()
    http.on('POST /task/start', answer(503, 'We are under maintenance'))
    http.on('GET /maintenance/', ok({ detail: 'Maintenance mode is enabled' }), ok({ detail: 'Maintenance mode is disabled' }))

    expect(await (await app.s.screens.load()).tasks.advance(aTask({ task_id: 1 }))).toBeFalsy()

    expect(app.s.maintenance.underMaintenance).toBe(true)
    expect(app.s.toasts.toasts).toEqual([])
    expect(platform.haptics).toEqual([])
    // The poll still sees maintenance: the page stays; then it ends: the app reloads.
    await app.s.maintenance.check()
    expect(platform.reloads).toBe(0)
    await app.s.maintenance.check()
    expect(platform.reloads).toBe(1)
  })

  it('many calls in flight when maintenance begins: the page, and not one toast', async () => {
    const { app, http } = await composed()
    for (const route of ['GET /operations/history', 'GET /withdraw/history', 'GET /task/list', 'GET /mint/', 'GET /mint/all-plans', 'GET /staking/'])
      http.on(route, answer(503, 'We are under maintenance'))

    const { history, tasks } = await app.s.screens.load()
    await Promise.all([history.refresh(), tasks.refresh(), app.s.bonds.refresh()])

    expect(app.s.maintenance.underMaintenance).toBe(true)
    expect(app.s.toasts.toasts).toEqual([])
  })
})
