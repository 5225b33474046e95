import type { Notice } from './notice.ts'
import { PENDING_WINDOW_SECONDS } from './constants.ts'
import type { LiveMintEvent, LiveStakeEvent, Mint, Stake } from './entities/mint.ts'
import type { Id } from './entities/primitives.ts'

interface Record_ {
  readonly id: Id
  readonly status: string
  readonly created_at: number
  readonly amount_token: number
  readonly tariff_days: number
}

const isFreshPending = (r: Record_, nowSeconds: number) =>
  r.status === 'pending' && nowSeconds - r.created_at < PENDING_WINDOW_SECONDS

/**
 * The pending rule (spec §4): a pending item counts only if it was created less than 3 minutes
 * ago, and only the newest one is kept. Other items pass through in their order.
 */
export const keepNewestPending = <R extends Record_>(items: ReadonlyArray<R>, nowSeconds: number): R[] => {
  let newest: R | undefined
  for (const r of items) if (isFreshPending(r, nowSeconds) && (!newest || r.created_at > newest.created_at)) newest = r
  return items.filter((r) => r.status !== 'pending' || r === newest)
}

/**
 * The pending item that a live record confirms: the same id; else, for a record just activated that
 * the list does not hold yet, a pending one with the same amount and days. An update of a record the
 * list already holds (completed, cancelled) never takes another pending item with it.
 */
const pendingTwin = <R extends Record_>(items: ReadonlyArray<R>, live: R): R | undefined => {
  const sameId = items.find((r) => r.id === live.id)
  if (sameId) return sameId.status === 'pending' ? sameId : undefined
  if (live.status !== 'active') return undefined
  return items.find((r) => r.status === 'pending' && r.amount_token === live.amount_token && r.tariff_days === live.tariff_days)
}

/**
 * Applies a live record to a list (spec §4): the record replaces any item with its id (or is
 * added at the top) and the matching pending item is dropped. A record only moves forward: a
 * pending copy that arrives late never replaces a record that is already past pending.
 */
export const mergeLiveRecord = <R extends Record_>(items: ReadonlyArray<R>, live: R): R[] => {
  if (live.status === 'pending' && items.some((r) => r.id === live.id && r.status !== 'pending'))
    return [...items]
  const twin = live.status === 'pending' ? undefined : pendingTwin(items, live)
  const rest = items.filter((r) => r !== twin && r.id !== live.id)
  return [live, ...rest]
}

/** A `user:mint` event as a mint: `mint_id` becomes `id`, `amount_token` is copied to `expected_token`. */
export const liveMintToMint = ({ mint_id, ...e }: LiveMintEvent): Mint => ({
  ...e,
  id: mint_id,
  expected_token: e.amount_token,
})

/** A `user:staking` event as a stake: `staking_id` becomes `id`, `amount_token` is copied to `expected_token`. */
export const liveStakeToStake = ({ staking_id, ...e }: LiveStakeEvent): Stake => ({
  ...e,
  id: staking_id,
  expected_token: e.amount_token,
})

/** The notice a live record earns (spec §4), or null: only active records announce themselves. */
export const liveRecordNotice = (
  kind: 'mint' | 'stake',
  status: string,
  viaFarming: boolean,
): Extract<Notice, { tag: 'bondCreated' | 'stakeCreated' }> | null => {
  if (status !== 'active') return null
  return kind === 'stake' ? { tag: 'stakeCreated' } : { tag: 'bondCreated', viaFarming }
}
