import pg from 'pg'
import type { Db, Engine, Row } from './engine.ts'
import { MIGRATIONS, postgresStep } from './migrations.ts'

/** PostgreSQL's integer types (int8, int2, int4, numeric): read as bigint, never through a double. */
const INTEGER_OIDS = new Set([20, 21, 23, 1700])
const asBigInt = (v: string) => BigInt(v)
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    INTEGER_OIDS.has(oid) ? asBigInt : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

/** `?` placeholders (the SQL both engines share) as PostgreSQL's `$1, $2, …`; quoted text is left alone. */
const numbered = new Map<string, string>()
export const toNumbered = (text: string): string => {
  let out = numbered.get(text)
  if (out !== undefined) return out
  let n = 0
  let quote: string | null = null
  out = ''
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null
      out += ch
    } else if (ch === "'" || ch === '"') {
      quote = ch
      out += ch
    } else out += ch === '?' ? `$${++n}` : ch
  }
  numbered.set(text, out)
  return out
}

/**
 * Each distinct statement gets a name, so each connection parses and plans it once (node-postgres
 * prepares a named statement on its first use on a connection and reuses it after).
 */
const names = new Map<string, string>()
const nameOf = (text: string): string => {
  let name = names.get(text)
  if (name === undefined) names.set(text, (name = `axiom_${names.size + 1}`))
  return name
}

/** Parameters as node-postgres sends them: bigint as its decimal text. */
const values = (params: unknown[]) => params.map((p) => (typeof p === 'bigint' ? p.toString() : p))

/** Errors after which the whole transaction is run again: serialisation failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01'])
const MAX_ATTEMPTS = 60
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Queryable = { query<R extends Row>(q: pg.QueryConfig): Promise<pg.QueryResult<R>> }

const over = (q: Queryable, inTransaction: boolean): Db => {
  const query = async <R extends Row>(text: string, params: unknown[]) =>
    (await q.query<R>({ name: nameOf(text), text: toNumbered(text), values: values(params) })) as pg.QueryResult<R>
  return {
    dialect: 'postgres',
    inTransaction,
    one: async <R extends Row>(text: string, ...params: unknown[]) => (await query<R>(text, params)).rows[0],
    all: async <R extends Row>(text: string, ...params: unknown[]) => (await query<R>(text, params)).rows,
    run: async (text, ...params) => ({ changes: (await query(text, params)).rowCount ?? 0 }),
    insert: async (text, ...params) => {
      const row = (await query<{ id: bigint }>(`${text} RETURNING id`, params)).rows[0]
      if (!row) throw new Error('INSERT returned no id')
      return row.id
    },
  }
}

/** The key of the advisory lock that lets one instance at a time migrate the schema. */
const MIGRATION_LOCK = 7_214_001

/** Brings the schema up to date, one instance at a time (the others wait on the lock, then find it done). */
const migrate = async (pool: pg.Pool): Promise<void> => {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)')
    const { rows } = await client.query<{ v: bigint | null }>('SELECT MAX(version) AS v FROM schema_version')
    for (let version = rows[0]?.v === null || rows[0] === undefined ? 0 : Number(rows[0].v); version < MIGRATIONS.length; version++) {
      await client.query('BEGIN')
      try {
        await client.query(postgresStep(MIGRATIONS[version]!))
        await client.query('INSERT INTO schema_version (version) VALUES ($1)', [version + 1])
        await client.query('COMMIT')
      } catch (e) {
        await client.query('ROLLBACK')
        throw e
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined)
    client.release()
  }
}

export interface PostgresOptions {
  /** Connections in the pool (default 10, or AXIOM_PG_POOL). */
  readonly poolSize?: number
  /** Pipelined connections for the statements outside transactions (default 2, or AXIOM_PG_PIPELINES; 0: the pool's). */
  readonly pipelines?: number
}

/**
 * Statements outside a transaction, sent pipelined (node-postgres `pipeline: true`) on a few
 * connections of their own, round robin: a statement goes out without waiting for the ones before it
 * on the connection, each with its own Sync (a failing one fails alone), so concurrent requests share
 * the connections' reads and writes instead of one round trip each on a pooled connection. A
 * connection that fails is dropped and opened again on the next statement. Transactions keep the pool:
 * their statements must not interleave with others.
 */
const pipelinedConnections = (config: pg.ClientConfig, size: number) => {
  const slots: Array<Promise<pg.Client> | null> = new Array(size).fill(null)
  /**
   * The statements of one turn of the event loop leave in one write: the connection's socket is
   * corked at the first and uncorked once the loop has run the callbacks it had ready (setImmediate),
   * so the requests that arrived together cost the backend and PostgreSQL one send and one receive
   * instead of one each (node-postgres corks only the messages of a single statement).
   */
  const corked = new Set<pg.Client>()
  const coalesce = (client: pg.Client) => {
    if (corked.has(client)) return
    const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream
    if (!stream?.cork || !stream.uncork) return
    corked.add(client)
    stream.cork()
    setImmediate(() => {
      corked.delete(client)
      stream.uncork!()
    })
  }
  let next = 0
  let closed = false
  const open = (i: number): Promise<pg.Client> => {
    const client = new pg.Client({ ...config, pipeline: true } as pg.ClientConfig)
    const drop = () => {
      if (slots[i] === ready) slots[i] = null
    }
    client.on('error', drop)
    client.on('end', drop)
    const ready = client.connect().then(
      () => client,
      (e: unknown) => {
        drop()
        throw e
      },
    )
    slots[i] = ready
    return ready
  }
  return {
    query: async <R extends Row>(q: pg.QueryConfig): Promise<pg.QueryResult<R>> => {
      if (closed) throw new Error('the database connections are closed')
      const i = next
      next = (next + 1) % size
      const client = await (slots[i] ?? open(i))
      coalesce(client)
      return client.query<R>(q)
    },
    close: async () => {
      closed = true
      await Promise.all(slots.map((s) => s?.then((c) => c.end()).catch(() => undefined)))
    },
  }
}

/** Hides the password of a connection URL. */
export const redacted = (url: string): string => {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return 'postgres://…'
  }
}

/**
 * PostgreSQL through node-postgres: statements outside a transaction go out pipelined on a few
 * connections (pipelinedConnections); a transaction takes a connection of the pool for itself, runs
 * SERIALIZABLE, and is re-run from the start
 * (up to MAX_ATTEMPTS, with a growing random pause) when PostgreSQL reports a conflict.
 */
export const openPostgres = async (url: string, options: PostgresOptions = {}): Promise<Engine> => {
  const max = options.poolSize ?? (process.env.AXIOM_PG_POOL ? Number(process.env.AXIOM_PG_POOL) : 10)
  const pipelines = options.pipelines ?? (process.env.AXIOM_PG_PIPELINES ? Number(process.env.AXIOM_PG_PIPELINES) : 2)
  const pool = new pg.Pool({ connectionString: url, max, types })
  let closed = false
  // An idle connection the server drops is replaced on the next query; it must not crash the process.
  pool.on('error', () => undefined)
  await migrate(pool)
  const piped = pipelines > 0 ? pipelinedConnections({ connectionString: url, types }, pipelines) : null
  const direct = over(piped ?? pool, false)
  return {
    ...direct,
    where: redacted(url),
    poolState: () => ({ max, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    transaction: async (fn, options) => {
      const begin = options?.isolation === 'read committed' ? 'BEGIN ISOLATION LEVEL READ COMMITTED' : 'BEGIN ISOLATION LEVEL SERIALIZABLE'
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect()
        let broken: Error | undefined
        try {
          await client.query(begin)
          const result = await fn(over(client, true))
          await client.query('COMMIT')
          return result
        } catch (e) {
          await client.query('ROLLBACK').catch((rollback: Error) => void (broken = rollback))
          const code = (e as { code?: unknown }).code
          if (typeof code !== 'string' || !RETRYABLE.has(code) || attempt >= MAX_ATTEMPTS) throw e
        } finally {
          client.release(broken)
        }
        await sleep(Math.random() * Math.min(100, 2 * attempt))
      }
    },
    close: async () => {
      if (closed) return
      closed = true
      await piped?.close()
      await pool.end()
    },
  }
}
