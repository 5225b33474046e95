import { describe, expect, it, vi } from 'vitest'
import { makeHttpAxiomApi, NetworkError, noticeText, RequestRejected, toId } from '../../../core/index.ts'
import { FarmingState } from '../../../ui/features/farming/farming-state.ts'
import { HistoryState } from '../../../ui/features/history/history-state.ts'
import { ReferralsState } from '../../../ui/features/referrals/referrals-state.ts'
import { SellState } from '../../../ui/features/sell/sell-state.ts'
import { TasksState } from '../../../ui/features/tasks/tasks-state.ts'
import { ToastQueue } from '../../../ui/state/toast-queue.ts'
import { FakeHttpTransport, ok } from '../../core/fakes/fake-http-transport.ts'
import { MemorySessionStore } from '../../core/fakes/memory-stores.ts'
import { aTask } from '../../core/fakes/records.ts'
import { useCasesOver } from '../../core/fakes/use-cases.ts'
import { stateHarness, toastTexts } from './harness.ts'

/** A raw address and a well-known friendly one (bounceable, base64url, with its checksum). */
const ADDRESS = `0:${'12'.repeat(32)}`
const FRIENDLY = 'EQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG'

describe('ToastQueue', () => {
  it('shows a toast for 3 s by default (spec §8)', () => {
    const timers: Array<[() => void, number]> = []
    const q = new ToastQueue({ setTimeout: (fn, ms) => timers.push([fn, ms]) })
    q.notify({ tag: 'stakeCreated' })
    expect(q.toasts.map((t) => noticeText(t.notice))).toEqual(['New Stake created'])
    expect(timers[0]?.[1]).toBe(3_000)
    timers[0]?.[0]()
    expect(q.toasts).toEqual([])
  })

  it("shows 'Referral link copied to clipboard' for 3 s too: §9's 1500 ms is the wallet widget's own \"Link copied\"", () => {
    const timers: number[] = []
    const q = new ToastQueue({ setTimeout: (_fn, ms) => timers.push(ms) })
    q.notify({ tag: 'copied', what: 'referralLink' })
    q.notify({ tag: 'copied', what: 'text' })
    expect(q.toasts.map((t) => noticeText(t.notice))).toEqual(['Referral link copied to clipboard', 'Copied to clipboard'])
    expect(timers).toEqual([3_000, 3_000])
  })

  it("'New Bond created' takes 'Transaction is being processed' away, and leaves other toasts", () => {
    const q = new ToastQueue({ setTimeout: () => 0 })
    q.notify({ tag: 'transactionProcessing' })
    q.notify({ tag: 'copied', what: 'text' })
    q.notify({ tag: 'bondCreated', viaFarming: false })
    expect(q.toasts.map((t) => noticeText(t.notice))).toEqual(['Copied to clipboard', 'New Bond created'])
    q.notify({ tag: 'transactionProcessing' })
    q.notify({ tag: 'bondCreated', viaFarming: true })
    expect(q.toasts.map((t) => noticeText(t.notice))).toEqual(['Copied to clipboard', 'New Bond created', 'New Bond created via Farming'])
  })
})

describe('TasksState', () => {
  it('walks a task start → validate → claim and keeps the badge right', async () => {
    const h = stateHarness()
    h.api.taskList = [aTask({ task_id: 1 }), aTask({ task_id: 2, status: 'CLAIMED' })]
    let claimed = 0
    const tasks = new TasksState(h.uc, { refresh: async () => (claimed++, null) })
    await tasks.refresh()
    expect(tasks.badge).toBe(1)
    for (let i = 0; i < 3; i++) await tasks.advance(tasks.tasks[0]!)
    expect(tasks.tasks[0]?.status).toBe('CLAIMED')
    expect(tasks.badge).toBe(0)
    expect(claimed).toBe(1)
    expect(h.api.calls.map((c) => c.method)).toEqual(['tasks', 'startTask', 'validateTask', 'claimTask'])
  })

  it('after a claim whose answer never came, shows where the task stands instead of leaving Claim to tap into a refusal', async () => {
    const h = stateHarness()
    h.api.taskList = [aTask({ task_id: 1, status: 'VALIDATED' })]
    let balanceReloads = 0
    const tasks = new TasksState(h.uc, { refresh: async () => (balanceReloads++, null) })
    await tasks.refresh()
    // The server claims the task, but its answer is lost on the way.
    h.api.taskList = [aTask({ task_id: 1, status: 'CLAIMED' })]
    h.api.failWith('claimTask', new NetworkError({ cause: 'connection reset after the request was sent' }))
    expect(await tasks.advance(tasks.tasks[0]!)).toBeNull()
    await vi.waitFor(() => expect(tasks.tasks[0]?.status).toBe('CLAIMED'))
    expect(tasks.badge).toBe(0)
    expect(balanceReloads).toBe(1)
  })

  it('after a refusal, does not ask again (the answer is definite)', async () => {
    const h = stateHarness()
    h.api.taskList = [aTask({ task_id: 1, status: 'VALIDATED' })]
    const tasks = new TasksState(h.uc, { refresh: async () => null })
    await tasks.refresh()
    h.api.failWith('claimTask', new RequestRejected({ status: 400, msg: 'The task is already claimed' }))
    await tasks.advance(tasks.tasks[0]!)
    await new Promise((r) => setTimeout(r, 10))
    expect(h.api.callsTo('tasks')).toHaveLength(1)
  })
})

describe('ReferralsState', () => {
  it("shows '+N' new referrals until the list is seen", async () => {
    const h = stateHarness()
    h.api.referralList = [{ id: toId(1) }, { id: toId(2) }]
    const referrals = new ReferralsState(h.uc)
    await referrals.refresh()
    expect(referrals.badge).toBe('+2')
    referrals.markSeen()
    await referrals.refresh()
    expect(referrals.badge).toBeNull()
  })
})

describe('ReferralsState paging', () => {
  it('shows the first page, adds the next ones on request (each referral once), and counts the total as seen', async () => {
    const h = stateHarness()
    h.api.referralList = Array.from({ length: 700 }, (_, i) => ({ id: toId(700 - i) }))
    const referrals = new ReferralsState(h.uc)
    await referrals.refresh()
    expect(referrals.referrals).toHaveLength(300)
    expect(referrals).toMatchObject({ total: 700, hasMore: true, badge: '+700' })
    // A referral arrives before the next page: the pages shift by one, the list holds no duplicate.
    h.api.referralList = [{ id: toId(701) }, ...h.api.referralList]
    await referrals.loadMore()
    expect(referrals.referrals).toHaveLength(599)
    expect(referrals.hasMore).toBe(true)
    await referrals.loadMore()
    expect(referrals.referrals.map((r) => r.id)).toEqual(Array.from({ length: 700 }, (_, i) => toId(700 - i)))
    expect(referrals.hasMore).toBe(false)
    await referrals.loadMore()
    expect(h.api.callsTo('referrals')).toHaveLength(3)
    referrals.markSeen()
    expect(h.storage.get('lastRefCount')).toBe('701')
    await referrals.refresh()
    expect(referrals.referrals).toHaveLength(300)
    expect(referrals.referrals[0]!.id).toBe(toId(701))
  })
})

describe('ReferralsState before its list has loaded', () => {
  it('does not mark an unloaded list as seen, so the badge stays right', async () => {
    const h = stateHarness()
    h.api.referralList = [{ id: toId(1) }, { id: toId(2) }, { id: toId(3) }]
    h.storage.set('lastRefCount', '3')
    const referrals = new ReferralsState(h.uc)
    const leave = referrals.view() // the app opened on /referral before the lists came
    expect(h.storage.get('lastRefCount')).toBe('3')
    await referrals.refresh()
    expect(h.storage.get('lastRefCount')).toBe('3')
    expect(referrals.badge).toBeNull()
    leave()
  })
})

describe('SellState', () => {
  it('refuses a bad address with a clear message and sends nothing', async () => {
    const h = stateHarness()
    const sell = new SellState(h.uc, { refresh: async () => null })
    expect(await sell.sell({ amount: 5, address: 'not-an-address', fromReferral: false })).toBeNull()
    expect(toastTexts(h)).toEqual(['Error: Enter a valid TON address'])
    expect(h.platform.haptics).toEqual(['error'])
    expect(h.api.callsTo('createWithdraw')).toEqual([])
  })

  it('sells once per press and tells the balances to refresh', async () => {
    const h = stateHarness()
    let refreshed = 0
    const sell = new SellState(h.uc, { refresh: async () => (refreshed++, null) })
    const address = `0:${'12'.repeat(32)}`
    await Promise.all([sell.sell({ amount: 5, address, fromReferral: true }), sell.sell({ amount: 5, address, fromReferral: true })])
    expect(h.api.callsTo('createWithdraw')).toHaveLength(1)
    expect(refreshed).toBe(1)
  })
})

describe('FarmingState', () => {
  it('creates a link from the chosen balance, once per press', async () => {
    const h = stateHarness()
    const farming = new FarmingState(h.uc, h.bonds())
    await farming.chooseSource('task')
    const request = { amount: 10, days: 30, activations: 1, multiUse: false, forMe: false }
    await Promise.all([farming.create(request), farming.create(request)])
    const calls = h.api.callsTo('createFarmingLink')
    expect(calls).toHaveLength(1)
    expect(calls[0]?.input).toMatchObject({ from_task_balance: true, from_ref_balance: false, count_activations: 1 })
    expect(farming.lastCreated).not.toBeNull()
  })
})

describe('HistoryState', () => {
  it('pages through the operations 10 at a time', async () => {
    const h = stateHarness()
    h.api.operations = Array.from({ length: 23 }, (_, i) => ({ id: toId(i), type: 'credit', amount: i, created_at: 1_700_000_000 + i }))
    const history = new HistoryState(h.uc)
    await history.refresh()
    expect(history.operations.items).toHaveLength(10)
    expect(history.operations.pages).toBe(3)
    await history.operations.goTo(3)
    expect(history.operations.items).toHaveLength(3)
    await history.operations.goTo(9)
    expect(history.operations.page).toBe(3)
  })

  it('asks the backend for page and size=10 and walks to the last page with next, showing the total', async () => {
    // A backend of 23 operations that pages by whatever the request names, as JSON on the wire.
    const http = new FakeHttpTransport().on('GET /operations/history', (req) => {
      const q = (req.query ?? {}) as Record<string, number>
      const size = q.size ?? q.limit ?? 300
      const ids = Array.from({ length: 23 }, (_, i) => 23 - i).slice((q.page! - 1) * size, q.page! * size)
      return ok({ items: ids.map((id) => ({ id, type: 'credit', amount: '1', created_at: 1_700_000_000 + id })), total: 23, page: q.page, size })
    })
    const api = makeHttpAxiomApi({ http, session: new MemorySessionStore({ auth_token: 't' }) })
    const history = new HistoryState(useCasesOver({ api }))

    await history.operations.goTo(1)
    expect(history.operations.total).toBe(23)
    expect(history.operations.items.map((o) => o.id)).toEqual(['23', '22', '21', '20', '19', '18', '17', '16', '15', '14'])
    expect(history.operations.hasPrevious).toBe(false)
    while (history.operations.hasNext) await history.operations.next()

    expect(history.operations.page).toBe(3)
    expect(history.operations.items.map((o) => o.id)).toEqual(['3', '2', '1'])
    expect(http.requestsTo('GET /operations/history').map((r) => r.query)).toEqual([
      { page: 1, size: 10, sort_order: 'desc' },
      { page: 2, size: 10, sort_order: 'desc' },
      { page: 3, size: 10, sort_order: 'desc' },
    ])
    await history.operations.previous()
    expect(history.operations.items.map((o) => o.id)).toEqual(['13', '12', '11', '10', '9', '8', '7', '6', '5', '4'])
  })
})

describe('HistoryState pages that answer late', () => {
  it('shows the page asked for last, whatever order the answers come in', async () => {
    const { Effect } = await import('effect')
    const answers = new Map<number, () => void>()
    const page = (n: number) => ({ items: [{ id: toId(n), type: 'credit', amount: 1, created_at: 1_700_000_000 }], total: 30 })
    const history = new HistoryState({
      loadOperationsHistory: (n) => Effect.callback((resume) => void answers.set(n, () => resume(Effect.succeed(page(n))))),
      loadWithdrawHistory: () => Effect.succeed({ items: [], total: 0 }),
    })
    const first = history.operations.goTo(1)
    answers.get(1)!()
    await first
    const second = history.operations.goTo(2)
    const third = history.operations.goTo(3)
    answers.get(3)!()
    await third
    answers.get(2)!()
    await second
    expect(history.operations.page).toBe(3)
    expect(history.operations.items.map((o) => o.id)).toEqual(['3'])
    expect(history.operations.isFetching).toBe(false)
  })
})

describe('SessionState', () => {
  it('signs in again from the init data when a stale cookie’s session is refused, instead of failing the start', async () => {
    const { Effect } = await import('effect')
    const { Unauthorized } = await import('../../../core/index.ts')
    const { SessionState } = await import('../../../ui/state/session-state.ts')
    const { aUser } = await import('../../core/fakes/records.ts')
    let signIns = 0
    let userCalls = 0
    const session = new SessionState({
      authenticate: () => Effect.sync(() => (signIns++, 'authenticated' as const)),
      loadUser: () =>
        Effect.suspend(() => (++userCalls === 1 ? Effect.fail(new Unauthorized({ status: 401, msg: 'Token expired' })) : Effect.succeed(aUser()))),
    })
    expect(await session.signIn()).toBe('signed-in')
    expect(signIns).toBe(2)
    expect(session.user?.ref_code).toBe('REF42')
  })
})

describe('SellState quotes', () => {
  it('keeps the quote of the latest amount, whatever order the answers come in, and ties it to that amount', async () => {
    const { Effect } = await import('effect')
    const answers: Array<() => void> = []
    const quote = (amount: number) => ({ token_amount: amount, fee: amount * 0.03, net_amount: amount * 0.97 })
    const sell = new SellState(
      {
        quoteSale: (amount) =>
          Effect.callback((resume) => {
            answers.push(() => resume(Effect.succeed(quote(amount))))
          }),
        sellTokens: () => Effect.die('unused'),
        transferReferralBalance: () => Effect.die('unused'),
      },
      { refresh: async () => null },
    )
    const first = sell.preview(10, ADDRESS)
    const second = sell.preview(20, ADDRESS)
    answers[1]!()
    await second
    answers[0]!()
    await first
    expect(sell.quoteFor(20, ADDRESS)?.fee).toBeCloseTo(0.6, 9)
    expect(sell.quoteFor(10, ADDRESS)).toBeNull()
  })

  it('shows no fee or net for an address that is not valid, and does not ask for one', async () => {
    const h = stateHarness()
    const sell = new SellState(h.uc, { refresh: async () => null })
    for (const bad of ['', 'not-an-address', `1:${'ab'.repeat(32)}`, '0:abcdef', `${FRIENDLY.slice(0, -1)}A`]) {
      await sell.preview(10, bad)
      expect(sell.quoteFor(10, bad)).toBeNull()
    }
    expect(h.api.callsTo('calculateWithdraw')).toEqual([])

    await sell.preview(10, FRIENDLY)
    expect(h.api.callsTo('calculateWithdraw')).toHaveLength(1)
    expect(sell.quoteFor(10, FRIENDLY)).not.toBeNull()
    // Spoiling the address hides the quote at once, before any new preview is asked for.
    expect(sell.quoteFor(10, `${FRIENDLY}x`)).toBeNull()
    expect(toastTexts(h)).toEqual([])
  })

  it('drops a quote that was on its way when the address turned invalid', async () => {
    const { Effect } = await import('effect')
    const answers: Array<() => void> = []
    const sell = new SellState(
      {
        quoteSale: (amount) =>
          Effect.callback((resume) => {
            answers.push(() => resume(Effect.succeed({ token_amount: amount, fee: 0.3, net_amount: 9.7 })))
          }),
        sellTokens: () => Effect.die('unused'),
        transferReferralBalance: () => Effect.die('unused'),
      },
      { refresh: async () => null },
    )
    const asked = sell.preview(10, ADDRESS)
    await sell.preview(10, 'typo')
    answers[0]!()
    await asked
    expect(sell.quote).toBeNull()
    expect(sell.quoteFor(10, ADDRESS)).toBeNull()
  })
})
