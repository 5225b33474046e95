import { getRow } from '../db/sql.ts'
import type { Db } from '../db/engine.ts'
import type { ServerContext } from './context.ts'
import type { Change, LiveEvent } from './events.ts'
import { type MintRow, positionColumns, type StakeRow, type UserRow } from './rows.ts'

/** `user:balance` after the transaction commits. */
export const queueBalance = (ctx: ServerContext, userId: bigint): void => ctx.events.push(`balance:${userId}`, { kind: 'balance', userId })

/** `user:mint`: the bond as it stands after the transaction commits. */
export const queueMint = (ctx: ServerContext, userId: bigint, mintId: bigint): void =>
  ctx.events.push(`mint:${mintId}`, { kind: 'mint', userId, id: mintId })

/** `user:staking`: the stake as it stands after the transaction commits. */
export const queueStake = (ctx: ServerContext, userId: bigint, stakeId: bigint): void =>
  ctx.events.push(`stake:${stakeId}`, { kind: 'stake', userId, id: stakeId })

/** `global:collective_bonus` to every socket. */
export const queueCollectiveBonus = (ctx: ServerContext, value: bigint): void => ctx.events.push('collective', { kind: 'collective', value })
export const queueSetting = (ctx: ServerContext, key: string): void => ctx.events.push(`setting:${key}`, { kind: 'setting', key })
export const queueRevokedFamily = (ctx: ServerContext, family: string): void => ctx.events.push(`revoked:${family}`, { kind: 'revoked', family })

/** The live event a committed change makes, read from `db`, and whom it is for (null: everyone); null when its row is gone. */
export const readChange = async (db: Db, c: Change): Promise<{ readonly userId: bigint | null; readonly event: LiveEvent } | null> => {
  switch (c.kind) {
    case 'balance': {
      const user = await getRow<UserRow>(db, 'SELECT * FROM users WHERE id = ?', c.userId)
      return user ? { userId: c.userId, event: { event: 'user:balance', user } } : null
    }
    case 'mint': {
      const mint = await getRow<MintRow>(db, `SELECT ${positionColumns('mints')} FROM mints WHERE id = ?`, c.id)
      return mint ? { userId: c.userId, event: { event: 'user:mint', mint } } : null
    }
    case 'stake': {
      const stake = await getRow<StakeRow>(db, `SELECT ${positionColumns('stakes')} FROM stakes WHERE id = ?`, c.id)
      return stake ? { userId: c.userId, event: { event: 'user:staking', stake } } : null
    }
    case 'collective':
      return { userId: null, event: { event: 'global:collective_bonus', collectiveBonus: c.value } }
    case 'payment':
      return { userId: c.userId, event: { event: 'chain:payment', payment: { what: c.what, id: c.id, state: c.state } } }
    case 'revoked':
    case 'setting':
      return null
  }
}
