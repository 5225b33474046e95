import type { WebSocket } from 'ws'
import type { ServerContext } from '../domain/context.ts'
import { SESSION_REVOKED_MSG, verifyAccessTokenClaims } from '../auth/tokens.ts'
import { getRow } from '../db/sql.ts'
import { NotSignedIn } from '../domain/errors.ts'
import type { UserRow } from '../domain/rows.ts'
import { collectiveBonus } from '../domain/settings.ts'
import { envelope, type SocketHub } from './hub.ts'
import { BAD_TOKEN_CLOSE, CLOSE_REASONS, closeOnInternalError, closeSocket, type SocketLog } from './close.ts'
import { balanceWire, collectiveBonusWire, priceWire } from '../http/wire-format.ts'

const TOKEN_WAIT_MS = 10_000

/** The fixed reason a refused token closes with (never the error's own text). */
const refusalReason = (e: NotSignedIn): string =>
  e.message === CLOSE_REASONS.tokenExpired
    ? CLOSE_REASONS.tokenExpired
    : e.message === SESSION_REVOKED_MSG
      ? CLOSE_REASONS.sessionRevoked
      : CLOSE_REASONS.invalidToken

/**
 * `/api/ws/`: the first message is the access token. A bad or expired one closes with 4001 and a
 * fixed reason ("Invalid token", "Token expired", "Session revoked"); a good one subscribes the socket
 * to its user's events and the broadcasts, and gets the current balance, price and collective bonus
 * at once. A later message that is a token re-authenticates (the client sends a fresh one after a
 * refresh). When the token expires the socket closes with 4001, and when its session is revoked on
 * any instance too (SocketHub.closeFamily). Anything else that fails closes with 1011 "Internal
 * error", logged here; the handler never rejects.
 */
export const handleMainSocket = (ctx: ServerContext, hub: SocketHub, ws: WebSocket, log: SocketLog) => {
  let userId: bigint | null = null
  let expiry: ReturnType<typeof setTimeout> | null = null
  const timer = setTimeout(() => closeSocket(ws, BAD_TOKEN_CLOSE, CLOSE_REASONS.noToken), TOKEN_WAIT_MS)
  ws.on('close', () => {
    clearTimeout(timer)
    if (expiry) clearTimeout(expiry)
    hub.remove(ws)
  })
  const signIn = async (text: string) => {
    const token = text.startsWith('Bearer ') ? text.slice(7) : text
    const { userId: id, exp, family } = await verifyAccessTokenClaims(ctx, token)
    const user = await getRow<UserRow>(ctx.db, 'SELECT * FROM users WHERE id = ?', id)
    // The user was deleted after the token was checked.
    if (!user) throw new NotSignedIn(CLOSE_REASONS.invalidToken)
    // Closed while the token was being checked: nothing to subscribe.
    if (ws.readyState !== ws.OPEN) return
    clearTimeout(timer)
    // The socket lives as long as its token: then the client refreshes and comes back with a new one.
    if (expiry) clearTimeout(expiry)
    expiry = setTimeout(() => closeSocket(ws, BAD_TOKEN_CLOSE, CLOSE_REASONS.tokenExpired), Math.max(0, exp - ctx.now()) * 1_000)
    userId = id
    hub.add(id, ws, family)
    // A revocation heard while the token was being checked closed the family's sockets before this
    // one joined them: asked again now (from what this instance keeps, no query), it refuses.
    await verifyAccessTokenClaims(ctx, token)
    ws.send(envelope('user:balance', balanceWire(user)))
    ws.send(envelope('price_update', priceWire(ctx.price.current(ctx.now()))))
    ws.send(envelope('global:collective_bonus', collectiveBonusWire(await collectiveBonus(ctx))))
  }
  ws.on('message', (raw, isBinary) => {
    // Closed already (past the message limit, or refused): what is still in flight is not read.
    if (ws.readyState !== ws.OPEN) return
    const text = isBinary ? '' : raw.toString().trim()
    if (userId !== null && text.split('.').length !== 3) return
    signIn(text).catch((e: unknown) => {
      if (e instanceof NotSignedIn) return closeSocket(ws, BAD_TOKEN_CLOSE, refusalReason(e))
      closeOnInternalError(ws, log, e, 'main socket')
    })
  })
}
