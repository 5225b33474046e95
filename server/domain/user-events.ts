import { getRow } from '../db/sql.ts'
import type { ServerContext } from '../context.ts'
import type { MintRow, StakeRow, UserRow } from './rows.ts'

/** `user:balance` after the transaction commits. */
export const queueBalance = (ctx: ServerContext, userId: bigint): void =>
  ctx.events.push(`balance:${userId}`, userId, async (db) => {
    const user = await getRow<UserRow>(db, 'SELECT * FROM users WHERE id = ?', userId)
    return user ? { event: 'user:balance', user } : null
  })

/** `user:mint`: the bond as it stands after the transaction commits. */
export const queueMint = (ctx: ServerContext, userId: bigint, mintId: bigint): void =>
  ctx.events.push(`mint:${mintId}`, userId, async (db) => {
    const mint = await getRow<MintRow>(db, 'SELECT * FROM mints WHERE id = ?', mintId)
    return mint ? { event: 'user:mint', mint } : null
  })

/** `user:staking`: the stake as it stands after the transaction commits. */
export const queueStake = (ctx: ServerContext, userId: bigint, stakeId: bigint): void =>
  ctx.events.push(`stake:${stakeId}`, userId, async (db) => {
    const stake = await getRow<StakeRow>(db, 'SELECT * FROM stakes WHERE id = ?', stakeId)
    return stake ? { event: 'user:staking', stake } : null
  })
