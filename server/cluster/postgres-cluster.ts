import { createHash } from 'node:crypto'
import pg from 'pg'
import type { BusMessage, Cluster, Lease } from './cluster.ts'
import type { Engine } from '../db/engine.ts'
import { changeFromJson, changeToJson, type Change } from '../domain/events.ts'

/** A NOTIFY payload must stay under 8 000 bytes: changes are sent in chunks of at most this much JSON. */
const MAX_PAYLOAD = 7_000

const encode = (m: BusMessage): string[] => {
  if (m.type === 'tick') return [`t${m.at}`]
  const chunks: string[] = []
  let batch: Array<Record<string, string>> = []
  let size = 2
  for (const c of m.changes) {
    const json = changeToJson(c)
    const len = JSON.stringify(json).length + 1
    if (batch.length > 0 && size + len > MAX_PAYLOAD) {
      chunks.push(`c${JSON.stringify(batch)}`)
      batch = []
      size = 2
    }
    batch.push(json)
    size += len
  }
  if (batch.length > 0) chunks.push(`c${JSON.stringify(batch)}`)
  return chunks
}

const decode = (payload: string): BusMessage | null => {
  if (payload.startsWith('t')) {
    const at = Number(payload.slice(1))
    return Number.isSafeInteger(at) ? { type: 'tick', at } : null
  }
  if (!payload.startsWith('c')) return null
  try {
    const list = JSON.parse(payload.slice(1)) as unknown
    if (!Array.isArray(list)) return null
    const changes = list.map((o) => (o && typeof o === 'object' ? changeFromJson(o as Record<string, unknown>) : null)).filter((c): c is Change => c !== null)
    return { type: 'changes', changes }
  } catch {
    return null
  }
}

/** A stable 64-bit advisory-lock key for a name (signed, as PostgreSQL's bigint). */
const lockKey = (text: string): string => createHash('sha256').update(text).digest().readBigInt64BE(0).toString()

interface LeaseState {
  readonly key: string
  held: boolean
  readonly acquired: Array<() => void>
}

/** The `application_name` of each instance's listening connection (pg_stat_activity), by schema. */
export const listenerName = (schema: string): string => `axiom-listener ${schema}`.slice(0, 63)

/**
 * The cluster over PostgreSQL. One dedicated connection per instance LISTENs on the deployment's
 * channel and holds its leases as session advisory locks: when the instance dies, its connection
 * closes and PostgreSQL frees its locks; another instance takes each within `retryMs`. Messages are
 * sent with pg_notify through the engine's pool. The channel and the lock keys are named after the
 * schema (search_path), so deployments sharing one database do not hear each other.
 */
export const openPostgresCluster = async (url: string, engine: Engine, options: { readonly retryMs: number }): Promise<Cluster> => {
  const schemaRow = await engine.one<{ s: string }>('SELECT current_schema() AS s')
  const schema = schemaRow?.s ?? 'public'
  const channel = `axiom_${createHash('sha256').update(schema).digest('hex').slice(0, 24)}`
  const handlers: Array<(m: BusMessage) => Promise<void> | void> = []
  const leases = new Map<string, LeaseState>()
  let inbox: Promise<void> = Promise.resolve()
  let client: pg.Client | null = null
  let closed = false
  /** A listening connection was lost since the last one began: its successor reports a gap. */
  let lostOne = false
  const gapHandlers: Array<() => void> = []

  const dispatch = (payload: string) => {
    const m = decode(payload)
    if (!m) return
    inbox = inbox.then(async () => {
      for (const h of handlers) {
        try {
          await h(m)
        } catch (e) {
          console.error('[axiom] live message not handled:', e)
        }
      }
    })
  }

  const lost = (c: pg.Client) => {
    if (client !== c) return
    client = null
    lostOne = true
    for (const l of leases.values()) l.held = false
    c.end().catch(() => undefined)
  }

  const connect = async (): Promise<pg.Client> => {
    if (client) return client
    const c = new pg.Client({ connectionString: url, application_name: listenerName(schema) })
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload) dispatch(n.payload)
    })
    c.on('error', () => lost(c))
    c.on('end', () => lost(c))
    await c.connect()
    await c.query(`LISTEN "${channel}"`)
    client = c
    if (lostOne && !closed) {
      lostOne = false
      for (const fn of gapHandlers) {
        try {
          fn()
        } catch (e) {
          console.error('[axiom] gap handler failed:', e)
        }
      }
    }
    return c
  }

  let trying: Promise<void> | null = null
  const tryLeases = (): Promise<void> =>
    (trying ??= (async () => {
      try {
        const c = await connect()
        for (const l of leases.values()) {
          if (l.held || closed) continue
          const r = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [l.key])
          if (r.rows[0]?.ok && client === c) {
            l.held = true
            for (const fn of l.acquired) fn()
          }
        }
      } catch {
        // The connection is down: tried again on the next round.
      } finally {
        trying = null
      }
    })())

  await connect()
  const timer = setInterval(() => void tryLeases(), options.retryMs)
  timer.unref()

  return {
    publish: async (m) => {
      for (const payload of encode(m)) await engine.one('SELECT pg_notify(?, ?)', channel, payload)
    },
    subscribe: (h) => void handlers.push(h),
    lease: async (name): Promise<Lease> => {
      let l = leases.get(name)
      if (!l) {
        l = { key: lockKey(`${schema}:${name}`), held: false, acquired: [] }
        leases.set(name, l)
        await tryLeases()
        // A round already under way may have begun before this lease existed.
        if (!l.held) await tryLeases()
      }
      const state = l
      return {
        held: () => state.held,
        onAcquired: (fn) => {
          state.acquired.push(fn)
          if (state.held) fn()
        },
      }
    },
    onGap: (fn) => void gapHandlers.push(fn),
    close: async () => {
      closed = true
      clearInterval(timer)
      await trying
      const c = client
      client = null
      for (const l of leases.values()) l.held = false
      await c?.end().catch(() => undefined)
      await inbox
    },
  }
}
