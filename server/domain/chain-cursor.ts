import { inTx, type ServerContext } from './context.ts'
import { big, getRow, run, str } from '../db/sql.ts'
import { expireUnpaidBonds, markMintPaid } from './mints.ts'
import type { MintRow } from './rows.ts'

/**
 * How far a chain watcher has handled an account's transactions: the logical time and the hash (hex)
 * of the last one it handled. The hash names the transaction; the logical time orders it. Stored in
 * `chain_cursor` under a name (one per watched account), as a signed 64-bit integer on both engines.
 */
export interface ChainCursor {
  readonly lt: bigint
  readonly txHash: string
}

/** The name of the treasury watcher's cursor (chain_cursor, chain_seen). */
export const TREASURY_CURSOR = 'treasury'

/** One move of a cursor: from `expected` (null: none stored yet) to `next`. */
export interface CursorStep {
  readonly name: string
  readonly expected: ChainCursor | null
  readonly next: ChainCursor
}

/**
 * The stored cursor was not the one a watcher expected: another watcher moved it (it took over the
 * job), so this one's view of what is handled is stale. Nothing was written.
 */
export class CursorMoved extends Error {
  readonly _tag = 'CursorMoved'
  constructor(
    readonly cursor: string,
    readonly expected: ChainCursor | null,
  ) {
    super(`The chain cursor ${cursor} is no longer at ${expected ? `${expected.lt}:${expected.txHash}` : 'its start'}: another watcher moved it`)
  }
}

const LT_MAX = (1n << 63n) - 1n

const checked = (c: ChainCursor): ChainCursor => {
  if (c.lt < 0n || c.lt > LT_MAX) throw new RangeError(`A logical time must be in 0…2^63-1, not ${c.lt}`)
  if (!/^[0-9a-f]{1,128}$/.test(c.txHash)) throw new RangeError(`A transaction hash is lowercase hex, not ${JSON.stringify(c.txHash)}`)
  return c
}

/** The cursor `name`, or null when no watcher has handled anything under it yet. */
export const readChainCursor = async (ctx: ServerContext, name: string): Promise<ChainCursor | null> => {
  const row = await getRow(ctx.db, 'SELECT lt, tx_hash FROM chain_cursor WHERE name = ?', name)
  return row ? { lt: big(row, 'lt'), txHash: str(row, 'tx_hash') } : null
}

/**
 * Compare-and-set: moves cursor `name` from `expected` to `next`, or throws CursorMoved (writing
 * nothing) when the stored cursor is not `expected`. Each case is one conditional statement, so two
 * watchers moving from the same `expected` cannot both succeed: on PostgreSQL the second waits for
 * the first's row and then matches nothing (or, inside a SERIALIZABLE transaction, is re-run and
 * then matches nothing); on SQLite writes take turns.
 */
export const advanceChainCursor = async (ctx: ServerContext, step: CursorStep): Promise<void> => {
  const { name, expected } = step
  const next = checked(step.next)
  const now = ctx.now()
  const moved = expected
    ? await run(
        ctx.db,
        'UPDATE chain_cursor SET lt = ?, tx_hash = ?, updated_at = ? WHERE name = ? AND lt = ? AND tx_hash = ?',
        next.lt,
        next.txHash,
        now,
        name,
        expected.lt,
        expected.txHash,
      )
    : await run(ctx.db, 'INSERT INTO chain_cursor (name, lt, tx_hash, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING', name, next.lt, next.txHash, now)
  if (moved.changes !== 1) throw new CursorMoved(name, expected)
}

/**
 * Compare-and-delete: cursor `name` is dropped if it is still `expected` (a local chain started anew:
 * its watcher starts afresh), else CursorMoved. What was decided under it (`chain_payments`) stays.
 */
export const resetChainCursor = async (ctx: ServerContext, name: string, expected: ChainCursor): Promise<void> => {
  const r = await run(ctx.db, 'DELETE FROM chain_cursor WHERE name = ? AND lt = ? AND tx_hash = ?', name, expected.lt, expected.txHash)
  if (r.changes !== 1) throw new CursorMoved(name, expected)
}

/**
 * A bond's payment, handled by a chain watcher: in one transaction, the cursor moves past the
 * payment (`step`) and the bond is marked paid (markMintPaid), so the credit and the cursor commit
 * together or not at all. Throws CursorMoved (the payment is another watcher's now) or what
 * markMintPaid throws (NotFound, BondNotPending, Underpaid); either way nothing is written.
 */
export const creditBondPayment = (ctx: ServerContext, mintId: bigint, paidNano: bigint, step: CursorStep): Promise<MintRow> =>
  inTx(ctx, async (ctx) => {
    await advanceChainCursor(ctx, step)
    return markMintPaid(ctx, mintId, paidNano)
  })

/**
 * The chain time up to which every transaction of the account behind `name` is handled, or null
 * when no watcher has finished a pass yet. It only grows.
 */
export const readChainSeen = async (ctx: ServerContext, name: string): Promise<number | null> => {
  const row = await getRow(ctx.db, 'SELECT seen_until FROM chain_seen WHERE name = ?', name)
  return row ? Number(big(row, 'seen_until')) : null
}

/**
 * A watcher handled every transaction of the account as of a block of chain time `seenUntil`.
 * Kept only if it is later than what is stored: a slower watcher's older view never moves it back.
 */
export const recordChainSeen = async (ctx: ServerContext, name: string, seenUntil: number): Promise<void> => {
  await run(
    ctx.db,
    `INSERT INTO chain_seen (name, seen_until, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET seen_until = excluded.seen_until, updated_at = excluded.updated_at
     WHERE chain_seen.seen_until < excluded.seen_until`,
    name,
    seenUntil,
    ctx.now(),
  )
}

/**
 * Cancels the unpaid bonds (expireUnpaidBonds) as far as the chain is known. Where a watcher
 * credits payments, a bond is cancelled only once the watcher has seen the chain past its payment
 * window: a payment made in time but not seen yet (the watcher was down) still finds its bond
 * pending. `watched`: this deployment runs a watcher, so until it reports, nothing is cancelled.
 * With no watcher and no report (payments credited another way) the server's clock decides alone.
 */
export const expireUnpaidBondsAsSeen = async (
  ctx: ServerContext,
  o: { name: string; watched: boolean },
  batches: { readonly signal?: AbortSignal } = {},
): Promise<number> => {
  const seen = await readChainSeen(ctx, o.name)
  if (seen === null) return o.watched ? 0 : expireUnpaidBonds(ctx, undefined, batches)
  return expireUnpaidBonds(ctx, seen - SHARD_LAG_S, batches)
}

/**
 * The seen time is a masterchain block's; a workchain block is listed in the masterchain a few
 * seconds after its own time, so a payment that close to the block may not be in it yet.
 */
export const SHARD_LAG_S = 30
