import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { allRows, getRow, num } from '../db/sql.ts'
import { createWithdrawal, saleAddress, transferFromReferral, withdrawQuote } from '../domain/withdraw.ts'
import { operationsPage } from '../domain/operation-texts.ts'
import type { WithdrawalRow } from '../domain/rows.ts'
import { httpError } from '../http/errors.ts'
import { once } from '../http/idempotency.ts'
import { bodyFields, boolField, historyPaging, queryFields, sortOrder } from '../http/params.ts'
import { requireNano, tokens } from '../domain/money.ts'
import { operationWire, transferWire, withdrawalWire, withdrawQuoteWire } from '../http/wire-format.ts'

/** The smallest sale: 1 AXIOM. */
export const WITHDRAW_MIN = tokens(1)
const SORTABLE = new Set(['created_at', 'token_amount', 'id'])

export const withdrawRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/withdraw/calculate', async (req) =>
    withdrawQuoteWire(await withdrawQuote(ctx, requireNano('token_amount', queryFields(req.query).token_amount, { min: WITHDRAW_MIN }))),
  )

  app.post('/withdraw/create', async (req, reply) => {
    const body = bodyFields(req.body)
    const fromRef = boolField(body, 'from_ref_balance', false)
    const amount = requireNano('token_amount', body.token_amount, { min: WITHDRAW_MIN })
    const address = saleAddress(ctx, body.address)
    return once(ctx, req, reply, 'withdraw/create', async (tx) => withdrawalWire(await createWithdrawal(tx, req.userId, fromRef, amount, address)))
  })

  app.get('/withdraw/history', async (req) => {
    const q = queryFields(req.query)
    const { page, limit, offset } = historyPaging(q)
    const sortBy = q.sort_by ?? 'created_at'
    if (typeof sortBy !== 'string' || !SORTABLE.has(sortBy)) throw httpError(422, 'sort_by must be created_at, token_amount or id')
    const order = sortOrder(q)
    const rows = await allRows<WithdrawalRow>(
      ctx.db,
      `SELECT * FROM withdrawals WHERE user_id = ? ORDER BY ${sortBy} ${order}, id ${order} LIMIT ? OFFSET ?`,
      req.userId,
      limit,
      offset,
    )
    const total = num((await getRow(ctx.db, 'SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?', req.userId))!, 'n')
    return { items: rows.map(withdrawalWire), total, page, size: limit, limit }
  })

  app.post('/withdraw/transfer-from-referral-balance', async (req, reply) => {
    const amount = requireNano('token_amount', bodyFields(req.body).token_amount)
    return once(ctx, req, reply, 'withdraw/transfer', async (tx) => transferWire(await transferFromReferral(tx, req.userId, amount)))
  })

  app.get('/operations/history', async (req) => {
    const q = queryFields(req.query)
    const { page, limit, offset } = historyPaging(q)
    const { rows, total, numbers } = await operationsPage(ctx, req.userId, { limit, offset, order: sortOrder(q) })
    return {
      items: rows.map((row) => operationWire(row, numbers)),
      total,
      page,
      size: limit,
      limit,
    }
  })
}
