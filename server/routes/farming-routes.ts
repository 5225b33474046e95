import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { allRows, getRow, num } from '../db/sql.ts'
import { activateLink, cancelLink, createLink, MAX_ACTIVATIONS, sourceBalance, sourceColumn } from '../domain/farming.ts'
import { quoteBond } from '../domain/mints.ts'
import { activePlan, MINT_PLANS } from '../domain/plans.ts'
import { httpError } from '../http/errors.ts'
import { once } from '../http/idempotency.ts'
import { bodyFields, boolField, type Fields, idField, intField, paging, queryFields, stringField } from '../http/params.ts'
import { formatNano, requireNano } from '../domain/money.ts'
import { BOND_MAX, BOND_MIN } from './mint-routes.ts'
import { activationWire, bondQuoteWire, linkWire, planWire } from '../http/wire-format.ts'
import type { LinkRow } from '../domain/rows.ts'

export const farmingRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  /** The balance the flags choose (main when neither is set), as on /farming/create. */
  const chosenBalance = async (req: FastifyRequest, fields: Fields) =>
    sourceBalance(ctx, req.userId, sourceColumn(boolField(fields, 'from_ref_balance', false), boolField(fields, 'from_task_balance', false)))

  app.get('/farming/plans', async (req) => {
    const available = await chosenBalance(req, queryFields(req.query))
    return MINT_PLANS.map((p) => ({ ...planWire(p), available: formatNano(available) }))
  })

  app.get('/farming/', async (req) => {
    const { page, limit, offset } = paging(queryFields(req.query))
    const rows = await allRows<LinkRow>(ctx.db, 'SELECT * FROM farming_links WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?', req.userId, limit, offset)
    const total = num((await getRow(ctx.db, 'SELECT COUNT(*) AS n FROM farming_links WHERE user_id = ?', req.userId))!, 'n')
    return { items: rows.map(linkWire), total, page, limit }
  })

  app.get('/farming/calculate', async (req) => {
    const q = queryFields(req.query)
    const amount = requireNano('amount', q.amount, { min: BOND_MIN, max: BOND_MAX })
    const plan = activePlan('freeze_days', intField(q, 'freeze_days', { min: 1, max: 10_000 }))
    const available = await chosenBalance(req, q)
    return { ...bondQuoteWire(await quoteBond(ctx, req.userId, amount, plan)), available: formatNano(available) }
  })

  app.post('/farming/create', async (req, reply) => {
    const body = bodyFields(req.body)
    const input = {
      amount: requireNano('amount', body.amount, { min: BOND_MIN, max: BOND_MAX }),
      plan: activePlan('days', intField(body, 'days', { min: 1, max: 10_000 })),
      countActivations: intField(body, 'count_activations', { min: 1, max: MAX_ACTIVATIONS }),
      fromRefBalance: boolField(body, 'from_ref_balance', false),
      fromTaskBalance: boolField(body, 'from_task_balance', false),
      isMultilink: boolField(body, 'is_multilink', false),
      isForMe: boolField(body, 'is_for_me', false),
    }
    return once(ctx, req, reply, 'farming/create', async (tx) => linkWire(await createLink(tx, req.userId, input)))
  })

  app.post('/farming/:id/cancel', async (req) => linkWire(await cancelLink(ctx, req.userId, idField(req.params as Record<string, unknown>, 'id'))))

  app.get('/farming/activation-status', async (req) => {
    const code = stringField(queryFields(req.query), 'activation_code', 64)
    if (!/^[A-Za-z0-9_-]+$/.test(code)) throw httpError(404, 'Farming link not found')
    return activationWire(await activateLink(ctx, req.userId, code))
  })
}
