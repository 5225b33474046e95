import type { WebSocket } from 'ws'
import { CANDLE_INTERVALS, DEFAULT_CANDLE_INTERVAL } from '../../core/domain/constants.ts'
import type { ServerContext } from '../domain/context.ts'
import { isCandleInterval } from '../routes/market-routes.ts'
import { envelope, type SocketHub } from './hub.ts'
import { candleWire } from '../http/wire-format.ts'
import { closeOnInternalError, type SocketLog } from './close.ts'

/** The interval a message asks for: a bare string ('1h') or JSON ({"interval":"1h"} or "1h"). */
const requested = (text: string): unknown => {
  if (isCandleInterval(text)) return text
  try {
    const v = JSON.parse(text) as unknown
    return v && typeof v === 'object' ? (v as { interval?: unknown }).interval : v
  } catch {
    return undefined
  }
}

/**
 * `/api/ws/candles`: starts on 5m; every message switches the interval and is answered with the
 * current candle at once, then on every price tick. What fails inside closes the socket with 1011
 * "Internal error", logged here: a throw in the handler would end the process.
 */
export const handleCandleSocket = (ctx: ServerContext, hub: SocketHub, ws: WebSocket, log: SocketLog) => {
  hub.candleSockets.set(ws, DEFAULT_CANDLE_INTERVAL)
  ws.on('close', () => hub.candleSockets.delete(ws))
  ws.on('message', (raw, isBinary) => {
    // Closed already (past the message limit): what is still in flight is not read.
    if (ws.readyState !== ws.OPEN) return
    try {
      const interval = isBinary ? undefined : requested(raw.toString().trim())
      if (!isCandleInterval(interval)) {
        ws.send(envelope('error', { msg: `interval must be one of ${CANDLE_INTERVALS.join(', ')}` }))
        return
      }
      hub.candleSockets.set(ws, interval)
      ws.send(envelope('current_candle', { ...candleWire(ctx.price.currentCandle(interval, ctx.now())), interval }))
    } catch (e) {
      closeOnInternalError(ws, log, e, 'candle socket')
    }
  })
}

/** One price tick for every candle subscriber, each on its own interval. */
export const pushCandles = (ctx: ServerContext, hub: SocketHub, now = ctx.now()) => {
  const byInterval = new Map<string, string>()
  for (const [ws, interval] of hub.candleSockets) {
    let text = byInterval.get(interval)
    if (text === undefined) {
      text = envelope('current_candle', { ...candleWire(ctx.price.currentCandle(interval, now)), interval })
      byInterval.set(interval, text)
    }
    if (ws.readyState === ws.OPEN) ws.send(text)
  }
}
