import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { pageOf, settleUser } from '../domain/positions.ts'
import { createStake, quoteStake } from '../domain/staking.ts'
import { once } from '../http/idempotency.ts'
import { bodyFields, idField, paging, queryFields } from '../http/params.ts'
import { stakeQuoteWire, stakeWire } from '../http/wire-format.ts'

export const stakingRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/staking/', async (req) => {
    const { page, limit, offset } = paging(queryFields(req.query))
    await settleUser(ctx, req.userId)
    const { rows, total } = await pageOf(ctx, 'stakes', req.userId, limit, offset)
    return { items: rows.map(stakeWire), total, page, limit }
  })

  app.get('/staking/calculate', async (req) => stakeQuoteWire(await quoteStake(ctx, req.userId, idField(queryFields(req.query), 'staking_id'))))

  app.post('/staking/create', async (req, reply) => {
    const mintId = idField(bodyFields(req.body), 'mint_id')
    return once(ctx, req, reply, 'staking/create', async (tx) => stakeWire(await createStake(tx, req.userId, mintId)))
  })
}
