import type { FastifyInstance } from 'fastify'
import { CANDLE_INTERVAL_SECONDS, CANDLE_INTERVALS, MAINTENANCE_OFF_DETAIL } from '../../core/domain/constants.ts'
import type { ServerContext } from '../domain/context.ts'
import { type CandleInterval, MAX_CANDLES } from '../domain/price-walk.ts'
import { isMaintenanceOn } from '../domain/settings.ts'
import { financialStats } from '../domain/stats.ts'
import { httpError } from '../http/errors.ts'
import { intField, queryFields } from '../http/params.ts'
import { candleWire, priceWire, statsWire } from '../http/wire-format.ts'

export const MAINTENANCE_ON_DETAIL = 'Maintenance mode is enabled'
const LATEST = 4_102_444_800 // 2100-01-01

export const isCandleInterval = (v: unknown): v is CandleInterval => (CANDLE_INTERVALS as ReadonlyArray<unknown>).includes(v)

export const marketRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/maintenance/', async () => ({ detail: (await isMaintenanceOn(ctx)) ? MAINTENANCE_ON_DETAIL : MAINTENANCE_OFF_DETAIL }))

  app.get('/price/current-price', async () => priceWire(ctx.price.current(ctx.now())))

  app.get('/price/candles', async (req) => {
    const q = queryFields(req.query)
    const interval = q.interval ?? '5m'
    if (!isCandleInterval(interval)) throw httpError(422, `interval must be one of ${CANDLE_INTERVALS.join(', ')}`)
    const size = CANDLE_INTERVAL_SECONDS[interval]
    const to = intField(q, 'to_timestamp', { min: 0, max: LATEST, fallback: ctx.now() })
    const from = intField(q, 'from_timestamp', { min: 0, max: LATEST, fallback: to - size * (MAX_CANDLES - 1) })
    if (from > to) throw httpError(422, 'from_timestamp must not be after to_timestamp')
    return ctx.price.candles(interval, from, to, ctx.now()).map(candleWire)
  })

  app.get('/stats/financial', async () => statsWire(await financialStats(ctx)))
}
