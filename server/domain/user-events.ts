import { getRow } from '../db/sql.ts'
import type { ServerContext } from '../context.ts'
import { balanceWire, mintWire, stakeWire } from '../http/wire-format.ts'

/** `user:balance` after the transaction commits. */
export const queueBalance = (ctx: ServerContext, userId: bigint): void =>
  ctx.events.push(`balance:${userId}`, userId, 'user:balance', () => {
    const row = getRow(ctx.db, 'SELECT * FROM users WHERE id = ?', userId)
    return row ? balanceWire(row) : null
  })

/** `user:mint`: the mint with `mint_id` for `id` and `expected_token` = `amount_token` (spec §3). */
export const queueMint = (ctx: ServerContext, userId: bigint, mintId: bigint): void =>
  ctx.events.push(`mint:${mintId}`, userId, 'user:mint', () => {
    const row = getRow(ctx.db, 'SELECT * FROM mints WHERE id = ?', mintId)
    if (!row) return null
    const wire = mintWire(row)
    return { ...wire, mint_id: wire.id, expected_token: wire.amount_token }
  })

export const queueStake = (ctx: ServerContext, userId: bigint, stakeId: bigint): void =>
  ctx.events.push(`stake:${stakeId}`, userId, 'user:staking', () => {
    const row = getRow(ctx.db, 'SELECT * FROM stakes WHERE id = ?', stakeId)
    if (!row) return null
    const wire = stakeWire(row)
    return { ...wire, staking_id: wire.id, expected_token: wire.amount_token }
  })
