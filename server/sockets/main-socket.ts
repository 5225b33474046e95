import type { WebSocket } from 'ws'
import type { ServerContext } from '../domain/context.ts'
import { verifyAccessTokenClaims } from '../auth/tokens.ts'
import { getRow } from '../db/sql.ts'
import type { UserRow } from '../domain/rows.ts'
import { collectiveBonus } from '../domain/settings.ts'
import { envelope, type SocketHub } from './hub.ts'
import { balanceWire, collectiveBonusWire, priceWire } from '../http/wire-format.ts'

export const BAD_TOKEN_CLOSE = 4001
const TOKEN_WAIT_MS = 10_000

/**
 * `/api/ws/`: the first message is the access token. A bad or expired one closes with 4001 and the
 * reason; a good one subscribes the socket to its user's events and the broadcasts, and gets the
 * current balance, price and collective bonus at once. A later message that is a token re-authenticates
 * (the client sends a fresh one after a refresh). When the token expires the socket closes with 4001.
 */
export const handleMainSocket = (ctx: ServerContext, hub: SocketHub, ws: WebSocket) => {
  let userId: bigint | null = null
  let expiry: ReturnType<typeof setTimeout> | null = null
  const timer = setTimeout(() => ws.close(BAD_TOKEN_CLOSE, 'No token received'), TOKEN_WAIT_MS)
  ws.on('close', () => {
    clearTimeout(timer)
    if (expiry) clearTimeout(expiry)
    hub.remove(ws)
  })
  ws.on('message', async (raw, isBinary) => {
    const text = isBinary ? '' : raw.toString().trim()
    if (userId !== null && text.split('.').length !== 3) return
    const token = text.startsWith('Bearer ') ? text.slice(7) : text
    try {
      const { userId: id, exp } = await verifyAccessTokenClaims(ctx, token)
      const user = (await getRow<UserRow>(ctx.db, 'SELECT * FROM users WHERE id = ?', id))!
      clearTimeout(timer)
      // The socket lives as long as its token: then the client refreshes and comes back with a new one.
      if (expiry) clearTimeout(expiry)
      expiry = setTimeout(() => ws.close(BAD_TOKEN_CLOSE, 'Token expired'), Math.max(0, exp - ctx.now()) * 1_000)
      if (userId !== null) hub.remove(ws)
      userId = id
      hub.add(id, ws)
      ws.send(envelope('user:balance', balanceWire(user)))
      ws.send(envelope('price_update', priceWire(ctx.price.current(ctx.now()))))
      ws.send(envelope('global:collective_bonus', collectiveBonusWire(await collectiveBonus(ctx))))
    } catch (e) {
      ws.close(BAD_TOKEN_CLOSE, e instanceof Error ? e.message : 'Invalid token')
    }
  })
}
