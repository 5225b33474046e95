import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { allRows, big, run, unindexed, type Row } from '../db/sql.ts'
import { inTx, type ServerContext } from './context.ts'
import { formatNano, SQLITE_MAX_INTEGER } from './money.ts'
import type { PositionTable } from './positions.ts'
import { type NoticePayload, ownNumber, queueNotices } from './outbox.ts'
import { queueBalance, queueMint, queueStake } from './user-events.ts'

/**
 * The periodic pass. A running position is never written: its reward follows from its own frozen
 * rates and the time (positions.ts `positionAsOf`). The pass only completes positions whose term
 * has ended, found on the (status, ends_at) index, in keyset batches of SETTLE_BATCH rows, one short
 * transaction each, yielding to the event loop between batches. So its cost is the number of
 * positions due, not the number active, and no batch holds the loop long.
 */
export const SETTLE_BATCH = { sqlite: 100, postgres: 400 } as const
/**
 * How many batches run at once. SQLite has one writer, so one. On PostgreSQL two, each over the due
 * positions of its half of the users (`user_id % 2`), so no two batches ever touch the same user's
 * rows: while one waits for the database the other's statements run, and PostgreSQL works on two
 * cores. Their transactions are READ COMMITTED: each write guards itself (a position completes only
 * while still active, `RETURNING` says which did; a balance is incremented in place), and under
 * SERIALIZABLE two batches' predicate locks, promoted to whole tables at 400 rows, would make each
 * abort the other.
 */
export const SETTLE_STREAMS = { sqlite: 1, postgres: 2 } as const

export interface PassResult {
  /** Positions this pass completed (paid out). */
  readonly completed: number
  /** Batches (transactions) it ran. */
  readonly batches: number
  /** True when the signal stopped it before it had seen every due position. */
  readonly aborted: boolean
}

const COLUMNS =
  'id, user_id, status, activated_at, ends_at, total_amount, max_reward, locked_nano, user_seq'

/** One stream's share of the due positions: all of them, or those of the users whose id is `part` modulo `of`. */
interface Share {
  readonly part: number
  readonly of: number
}

const dueBatch = (ctx: ServerContext, table: PositionTable, now: number, after: { endsAt: bigint; id: bigint } | null, limit: number, share: Share) => {
  const mine = share.of === 1 ? '' : ` AND user_id % ${share.of} = ${share.part}`
  return after === null
    ? allRows(ctx.db, `SELECT ${COLUMNS} FROM ${table} WHERE status = 'active' AND ends_at <= ?${mine} ORDER BY ends_at, id LIMIT ?`, now, limit)
    : allRows(
        ctx.db,
        `SELECT ${COLUMNS} FROM ${table} WHERE status = 'active' AND ends_at <= ? AND (ends_at > ? OR (ends_at = ? AND id > ?))${mine}
         ORDER BY ends_at, id LIMIT ?`,
        now,
        after.endsAt,
        after.endsAt,
        after.id,
        limit,
      )
}

const KIND = {
  mints: { principal: 'bond_principal', reward: 'bond_reward', label: 'Bond' },
  stakes: { principal: 'stake_principal', reward: 'stake_reward', label: 'Stake' },
} as const

const marks = (n: number, one: string) => Array.from({ length: n }, () => one).join(', ')

/**
 * Completes a batch of due rows in a few set-wise statements (what positions.ts completePosition
 * does for one, the same rows and operations): status completed, earned_reward = max_reward,
 * principal (with its locked part) and reward credited to balance_token, one operation each, the
 * live events queued. A user whose balance would pass the integer limit keeps their positions
 * active (and the rest of the batch completes). Returns how many it completed.
 */
const completeBatch = async (ctx: ServerContext, table: PositionTable, rows: ReadonlyArray<Row>): Promise<number> => {
  if (rows.length === 0) return 0
  const userIds = [...new Set(rows.map((r) => big(r, 'user_id')))]
  const users = await allRows(ctx.db, `SELECT id, balance_token FROM users WHERE id IN (${marks(userIds.length, '?')})`, ...userIds)
  const credit = new Map<bigint, bigint>()
  for (const r of rows) credit.set(big(r, 'user_id'), (credit.get(big(r, 'user_id')) ?? 0n) + big(r, 'total_amount') + big(r, 'max_reward'))
  const fits = new Set(users.filter((u) => big(u, 'balance_token') + credit.get(big(u, 'id'))! <= SQLITE_MAX_INTEGER).map((u) => big(u, 'id')))
  const candidates = rows.filter((r) => fits.has(big(r, 'user_id')))
  if (candidates.length === 0) return 0
  const done = new Set(
    (
      await allRows(
        ctx.db,
        `UPDATE ${table} SET status = 'completed', earned_reward = max_reward, last_updated_at = ends_at
         WHERE id IN (${marks(candidates.length, '?')}) AND ${unindexed(ctx.db, 'status')} = 'active' RETURNING id`,
        ...candidates.map((r) => big(r, 'id')),
      )
    ).map((r) => big(r, 'id')),
  )
  const completed = candidates.filter((r) => done.has(big(r, 'id')))
  if (completed.length === 0) return 0
  const perUser = new Map<bigint, { amount: bigint; locked: bigint }>()
  for (const r of completed) {
    const u = perUser.get(big(r, 'user_id')) ?? { amount: 0n, locked: 0n }
    perUser.set(big(r, 'user_id'), { amount: u.amount + big(r, 'total_amount') + big(r, 'max_reward'), locked: u.locked + big(r, 'locked_nano') })
  }
  // One statement for the batch's users, each found by its id: a join to a VALUES list was planned
  // on SQLite as a scan of every user, per batch.
  const cases = marks(perUser.size, 'WHEN CAST(? AS BIGINT) THEN CAST(? AS BIGINT)').replaceAll(', ', ' ')
  await run(
    ctx.db,
    `UPDATE users SET balance_token = balance_token + CASE id ${cases} END, locked_nano = locked_nano + CASE id ${cases} END
     WHERE id IN (${marks(perUser.size, '?')})`,
    ...[...perUser].flatMap(([id, d]) => [id, d.amount]),
    ...[...perUser].flatMap(([id, d]) => [id, d.locked]),
    ...perUser.keys(),
  )
  const kind = KIND[table]
  const now = ctx.now()
  const ops: unknown[] = []
  for (const r of completed) {
    const id = big(r, 'id')
    const userId = big(r, 'user_id')
    ops.push(userId, kind.principal, 'balance_token', big(r, 'total_amount'), now, `${kind.label} #${id} principal returned`)
    if (big(r, 'max_reward') !== 0n) ops.push(userId, kind.reward, 'balance_token', big(r, 'max_reward'), now, `${kind.label} #${id} reward`)
  }
  await run(ctx.db, `INSERT INTO operations (user_id, type, balance, amount, created_at, description) VALUES ${marks(ops.length / 6, '(?, ?, ?, ?, ?, ?)')}`, ...ops)
  for (const r of completed) {
    if (table === 'mints') queueMint(ctx, big(r, 'user_id'), big(r, 'id'))
    else queueStake(ctx, big(r, 'user_id'), big(r, 'id'))
  }
  for (const userId of perUser.keys()) queueBalance(ctx, userId)
  const notices = []
  for (const r of completed) {
    const id = big(r, 'id')
    const amount = formatNano(big(r, 'total_amount'))
    // The owner's number for it, stored at its insert (counted only for a row of before that).
    const number = r.user_seq === null ? await ownNumber(ctx, table, id) : Number(big(r, 'user_seq'))
    const payload: NoticePayload = table === 'mints' ? { mint_id: Number(id), number, amount } : { stake_id: Number(id), number, amount }
    notices.push({ userId: big(r, 'user_id'), kind: table === 'mints' ? 'bond_completed' : 'stake_completed', payload } as const)
  }
  await queueNotices(ctx, notices)
  return completed.length
}

/** Completes every bond and stake due at `ctx.now()`, batch by batch; stops between batches when `signal` aborts. */
export const completeDuePositions = async (
  ctx: ServerContext,
  o: { readonly signal?: AbortSignal; readonly batch?: number; readonly streams?: number } = {},
): Promise<PassResult> => {
  const now = ctx.now()
  // On SQLite a batch holds the event loop (the driver is synchronous): 100 rows, about 20 ms at L.
  // On PostgreSQL the loop is free while a statement runs, and a batch's cost is its round trips (six
  // statements and a commit): 400 rows a batch, so 10 000 due are 25 transactions, not 100.
  const limit = o.batch ?? SETTLE_BATCH[ctx.db.dialect]
  const of = o.streams ?? SETTLE_STREAMS[ctx.db.dialect]
  const serial = of === 1
  const stream = async (share: Share): Promise<PassResult> => {
    let completed = 0
    let batches = 0
    for (const table of ['mints', 'stakes'] as const) {
      let after: { endsAt: bigint; id: bigint } | null = null
      for (;;) {
        if (o.signal?.aborted) return { completed, batches, aborted: true }
        // The batch is read and completed in one transaction.
        // (Counted outside: on PostgreSQL the transaction may run more than once.)
        const [rows, done] = await inTx(
          ctx,
          async (ctx): Promise<[Row[], number]> => {
            const rows = await dueBatch(ctx, table, now, after, limit, share)
            return [rows, await completeBatch(ctx, table, rows)]
          },
          serial ? undefined : { isolation: 'read committed' },
        )
        completed += done
        batches++
        const last = rows[rows.length - 1]
        if (!last || rows.length < limit) break
        after = { endsAt: big(last, 'ends_at'), id: big(last, 'id') }
        await yieldToLoop()
      }
    }
    return { completed, batches, aborted: false }
  }
  const results = await Promise.all(Array.from({ length: of }, (_, part) => stream({ part, of })))
  return {
    completed: results.reduce((n, r) => n + r.completed, 0),
    batches: results.reduce((n, r) => n + r.batches, 0),
    aborted: results.some((r) => r.aborted),
  }
}
