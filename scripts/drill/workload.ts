/**
 * Writes that move money, through the real backend, for the backup and restore drills: users sign in
 * with Telegram initData (signed by hand from the protocol) and create bonds, stake them, sell and move
 * their referral balance over HTTP; the operator credits with `npm run admin -- credit` (runAdminCommand,
 * the CLI's own code, on the same database); a bond's payment is marked as the chain watcher marks it
 * (RunningServer.markMintPaid). Workers run side by side until stopped; `pause()` holds them between
 * two writes, so the database is still at a known moment.
 *
 * A refusal the API documents (400: an empty balance, given tokens that cannot be sold) is part of the
 * game and counted; any other answer stops the workload and fails its waiters.
 */
import { runAdminCommand, DEV_BOT_TOKEN, type RunningServer } from '../../server/main.ts'
import { signInitDataFor } from '../../tests/support/init-data.ts'

/** A valid mainnet address that is not the treasury, for sales. */
export const SALE_ADDRESS = 'EQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF'

export type ActionKind = 'register' | 'credit' | 'bond' | 'stake' | 'sale' | 'transfer'

export interface WorkloadOptions {
  /** The backend the writes go through. */
  readonly server: RunningServer
  /** The database the operator's credits are written to (the server's AXIOM_DB). */
  readonly db: string
  /** Workers writing side by side. */
  readonly workers: number
  /** Seed of the choices, so a run can be repeated. */
  readonly seed?: number
  /** The first Telegram id handed out. */
  readonly firstTelegramId?: number
  /** Called after each completed write (with the worker paused on it), e.g. to read the database. */
  readonly afterEach?: (done: number) => Promise<void> | void
  /**
   * Called inside a write that commits twice (a bond: its creation, then its payment marked), after
   * the first commit, with the writes completed before it: the one state between two writes.
   */
  readonly midWrite?: (done: number) => Promise<void> | void
}

interface User {
  readonly telegramId: number
  readonly token: string
  readonly refCode: string
}

/** mulberry32: a small seeded generator, so a run's choices can be repeated. */
const generator = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const WEIGHTS: ReadonlyArray<readonly [ActionKind, number]> = [
  ['register', 2],
  ['credit', 3],
  ['bond', 3],
  ['stake', 2],
  ['sale', 2],
  ['transfer', 1],
]

export interface Workload {
  readonly users: ReadonlyArray<{ readonly telegramId: number }>
  /** Writes completed so far (refusals included). */
  done(): number
  /** Completed writes by kind: [ok, refused]. */
  stats(): Readonly<Record<ActionKind, readonly [number, number]>>
  /** Registers `n` users one after another (a referral chain: each invited by a random earlier one); their Telegram ids. */
  register(n: number): Promise<number[]>
  /** Starts the workers (once). */
  start(): void
  /** Resolves once `n` writes in all are completed; rejects if the workload failed. */
  waitFor(n: number): Promise<void>
  /** Holds the workers before their next write and resolves once none is writing. */
  pause(): Promise<void>
  resume(): void
  /** Stops the workers after their current write; rejects with the first failure, if any. */
  stop(): Promise<void>
}

export const createWorkload = (o: WorkloadOptions): Workload => {
  const random = generator(o.seed ?? 20_261_128)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const users: User[] = []
  let nextId = o.firstTelegramId ?? 7_100_000_000
  let completed = 0
  let failure: Error | null = null
  const stats = Object.fromEntries(WEIGHTS.map(([k]) => [k, [0, 0]])) as Record<ActionKind, [number, number]>
  const waiters = new Set<{ n: number; resolve: () => void; reject: (e: Error) => void }>()
  let gate: Promise<void> | null = null
  let openGate: () => void = () => undefined
  let inFlight = 0
  let idle: Array<() => void> = []
  let running: Promise<void>[] = []
  let stopping = false

  const http = async (method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${o.server.url}/api${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {}
    return { status: res.status, body: parsed }
  }
  const expectOk = (what: string, r: { status: number; body: any }) => {
    if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }
  /** 200 is done, a documented 400 is a refusal; anything else fails the workload. */
  const okOrRefused = (what: string, r: { status: number; body: any }): boolean => {
    if (r.status === 200) return true
    if (r.status === 400) return false
    throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`)
  }

  const registerOne = async (): Promise<User> => {
    const telegramId = nextId++
    const refCode = users.length ? pick(users).refCode : null
    const initData = signInitDataFor({ id: telegramId, first_name: `Drill ${telegramId}` }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN)
    const { token } = expectOk('register', await http('POST', '/auth/register', null, { init_data: initData, ref_code: refCode }))
    const me = expectOk('me', await http('GET', '/user/me', token))
    const user = { telegramId, token, refCode: me.ref_code as string }
    users.push(user)
    return user
  }

  const amount = (min: number, max: number) => `${min + Math.floor(random() * (max - min))}.${Math.floor(random() * 1000)}`

  const bond = async (u: User): Promise<boolean> => {
    const created = expectOk('bond', await http('POST', '/mint/create', u.token, { amount: amount(10, 200), days: pick([10, 30, 60]) }))
    await o.midWrite?.(completed)
    await o.server.markMintPaid(BigInt(created.mint.id))
    return true
  }

  const act = async (kind: ActionKind): Promise<boolean> => {
    if (kind === 'register') return (await registerOne(), true)
    const u = pick(users)
    switch (kind) {
      case 'credit': {
        const out = await runAdminCommand(o.db, ['credit', String(u.telegramId), amount(1, 50)])
        if (!out.startsWith('credited ')) throw new Error(`admin credit: ${out}`)
        return true
      }
      case 'bond':
        return bond(u)
      case 'stake': {
        const list = expectOk('bonds', await http('GET', '/mint/?page=1&limit=50', u.token))
        const active = (list.items as Array<{ id: number; status: string }>).filter((m) => m.status === 'active')
        if (active.length === 0) return bond(u)
        return okOrRefused('stake', await http('POST', '/staking/create', u.token, { mint_id: pick(active).id }))
      }
      case 'sale':
        return okOrRefused('sale', await http('POST', '/withdraw/create', u.token, { from_ref_balance: false, token_amount: amount(1, 5), address: SALE_ADDRESS }))
      case 'transfer':
        return okOrRefused('transfer', await http('POST', '/withdraw/transfer-from-referral-balance', u.token, { token_amount: '0.5' }))
    }
  }

  const chooseKind = (): ActionKind => {
    const total = WEIGHTS.reduce((s, [, w]) => s + w, 0)
    let r = random() * total
    for (const [k, w] of WEIGHTS) if ((r -= w) < 0) return k
    return 'credit'
  }

  const settleWaiters = () => {
    for (const w of [...waiters]) {
      if (failure) w.reject(failure)
      else if (completed >= w.n) w.resolve()
      else continue
      waiters.delete(w)
    }
  }

  const worker = async () => {
    while (!stopping && !failure) {
      if (gate) {
        await gate
        continue
      }
      inFlight++
      try {
        const kind = chooseKind()
        const ok = await act(kind)
        stats[kind][ok ? 0 : 1]++
        completed++
        await o.afterEach?.(completed)
      } catch (e) {
        failure ??= e instanceof Error ? e : new Error(String(e))
      } finally {
        inFlight--
        if (inFlight === 0) for (const f of idle.splice(0)) f()
      }
      settleWaiters()
    }
    settleWaiters()
  }

  return {
    users,
    done: () => completed,
    stats: () => stats,
    register: async (n) => {
      const ids: number[] = []
      for (let i = 0; i < n; i++) ids.push((await registerOne()).telegramId)
      return ids
    },
    start: () => {
      if (running.length) return
      if (users.length === 0) throw new Error('register some users before starting the workload')
      running = Array.from({ length: o.workers }, () => worker())
    },
    waitFor: (n) =>
      new Promise((resolve, reject) => {
        waiters.add({ n, resolve, reject })
        settleWaiters()
      }),
    pause: async () => {
      if (!gate) gate = new Promise((resolve) => (openGate = resolve))
      if (inFlight > 0) await new Promise<void>((resolve) => idle.push(resolve))
      if (failure) throw failure
    },
    resume: () => {
      const open = openGate
      gate = null
      open()
    },
    stop: async () => {
      stopping = true
      const open = openGate
      gate = null
      open()
      await Promise.all(running)
      if (failure) throw failure
    },
  }
}
