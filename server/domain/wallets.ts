import { AlreadyBound, PayloadAlreadyUsed } from './errors.ts'
import { Address } from '@ton/core'
import { inTx, type ServerContext } from './context.ts'
import { getRow, run, big, type Row } from '../db/sql.ts'
import { isUniqueViolation } from '../db/engine.ts'

/** The user-facing form of a bound wallet: friendly, non-bounceable (a wallet), test-flagged on testnet ('-3'). */
export const friendlyWallet = (raw: string, network: string | null): string =>
  Address.parse(raw).toString({ bounceable: false, testOnly: network === '-3', urlSafe: true })

/** The `wallet_address` of /user/me: the friendly form, or null until a wallet is bound. */
export const walletOf = (row: Row): string | null => {
  const raw = row.wallet_address
  return typeof raw === 'string' ? friendlyWallet(raw, typeof row.wallet_network === 'string' ? row.wallet_network : null) : null
}

/**
 * Spent payloads live in the database until they expire, so a verified payload stays spent across
 * restarts and across instances. The check reads whether this payload was spent before verifying.
 */
export const isPayloadSpent = async (ctx: ServerContext, payload: string): Promise<boolean> =>
  (await getRow(ctx.db, 'SELECT 1 AS x FROM ton_proof_spent WHERE payload = ?', payload)) !== undefined

/** The expiry (unix seconds) a payload carries (the layout of server/auth/ton-proof.ts, read here without importing it). */
const payloadExpiry = (payload: string): number => Buffer.from(payload, 'hex').readUInt32BE(8)

/** How many issued payloads a requester record keeps; the oldest are forgotten first. */
const REMEMBERED_PAYLOADS = 10_000
/** Only for a context whose record was turned on (`recordTonProofRequesters`): production keeps none. */
const requesters = new WeakMap<ServerContext, Map<string, { readonly telegramId: string; readonly expiresAt: number }>>()

/** Notes who asked for a tonProof payload, until it expires, when the record is on. */
export const rememberPayload = async (ctx: ServerContext, payload: string, userId: bigint): Promise<void> => {
  const issued = requesters.get(ctx)
  if (!issued) return
  const user = await getRow(ctx.db, 'SELECT telegram_id FROM users WHERE id = ?', userId)
  if (!user) return
  const now = ctx.now()
  for (const [p, r] of issued) if (r.expiresAt < now) issued.delete(p)
  while (issued.size >= REMEMBERED_PAYLOADS) issued.delete(issued.keys().next().value!)
  issued.set(payload, { telegramId: String(user.telegram_id), expiresAt: payloadExpiry(payload) })
}

/**
 * Turns on the record of whom each tonProof payload was issued to, and returns its lookup: the
 * Telegram id of the user a payload was issued to, or null. The local dev wallet reads it from a
 * connect request's ton_proof, to answer each user with their own wallet, as each person has their
 * own wallet app (docs/local-stack.md).
 */
export const recordTonProofRequesters = (ctx: ServerContext): ((payload: string) => string | null) => {
  if (!requesters.has(ctx)) requesters.set(ctx, new Map())
  return (payload) => {
    const r = requesters.get(ctx)?.get(payload)
    return r && r.expiresAt >= ctx.now() ? r.telegramId : null
  }
}

/**
 * Binds a verified wallet (raw address) to the user, replacing any wallet bound before. The same
 * wallet bound again by the same user is a no-op; bound to another user → 409. The proof's payload
 * is spent in the same transaction.
 */
export const bindWallet = async (
  ctx: ServerContext,
  userId: bigint,
  rawAddress: string,
  network: string | null,
  payload: string,
): Promise<string> => {
  try {
    await inTx(ctx, async (ctx) => {
      const owner = await getRow(ctx.db, 'SELECT id FROM users WHERE wallet_address = ?', rawAddress)
      if (owner && big(owner, 'id') !== userId) throw new AlreadyBound()
      await run(
        ctx.db,
        'UPDATE users SET wallet_address = ?, wallet_network = ?, wallet_bound_at = ? WHERE id = ?',
        rawAddress,
        network,
        ctx.now(),
        userId,
      )
      // Spent only with the binding: a refused bind (409) leaves the payload usable; a replay racing this one finds it spent.
      await run(ctx.db, 'DELETE FROM ton_proof_spent WHERE expires_at < ?', ctx.now())
      const spent = await run(ctx.db, 'INSERT INTO ton_proof_spent (payload, expires_at) VALUES (?, ?) ON CONFLICT(payload) DO NOTHING', payload, payloadExpiry(payload))
      if (spent.changes === 0) throw new PayloadAlreadyUsed()
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw new AlreadyBound()
    throw e
  }
  return friendlyWallet(rawAddress, network)
}
