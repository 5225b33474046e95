import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { cancelMint, createMint, quoteTonBond } from '../domain/mints.ts'
import { activePlan, MINT_PLANS } from '../domain/plans.ts'
import { pageOf, settleUser } from '../domain/positions.ts'
import { once } from '../http/idempotency.ts'
import { bodyFields, idField, intField, paging, queryFields } from '../http/params.ts'
import { requireNano, tokens } from '../domain/money.ts'
import { bondQuoteWire, createdMintWire, mintWire, planWire } from '../http/wire-format.ts'

/** Bond amounts: 1 to 1 000 000 AXIOM. */
export const BOND_MIN = tokens(1)
export const BOND_MAX = tokens(1_000_000)

export const mintRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/mint/', async (req) => {
    const { page, limit, offset } = paging(queryFields(req.query))
    await settleUser(ctx, req.userId)
    const { rows, total } = await pageOf(ctx, 'mints', req.userId, limit, offset)
    return { items: rows.map(mintWire), total, page, limit }
  })

  app.get('/mint/all-plans', async () => MINT_PLANS.map(planWire))

  app.get('/mint/calculate', async (req) => {
    const q = queryFields(req.query)
    const amount = requireNano('amount', q.amount, { min: BOND_MIN, max: BOND_MAX })
    const plan = activePlan('freeze_days', intField(q, 'freeze_days', { min: 1, max: 10_000 }))
    return bondQuoteWire(await quoteTonBond(ctx, req.userId, amount, plan))
  })

  app.post('/mint/create', async (req, reply) => {
    const body = bodyFields(req.body)
    const amount = requireNano('amount', body.amount, { min: BOND_MIN, max: BOND_MAX })
    const plan = activePlan('days', intField(body, 'days', { min: 1, max: 10_000 }))
    return once(ctx, req, reply, 'mint/create', async (tx) => createdMintWire(await createMint(tx, req.userId, amount, plan)))
  })

  app.post('/mint/:id/cancel', async (req) => {
    const id = idField(req.params as Record<string, unknown>, 'id')
    return mintWire(await cancelMint(ctx, req.userId, id))
  })
}
