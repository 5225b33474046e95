import type { MintRow, StakeRow, UserRow } from './rows.ts'

/**
 * What the domain tells the sockets once a transaction commits, as domain rows; the socket side
 * turns each into its JSON payload (server/http/wire-format.ts, `liveEventWire`).
 */
export type LiveEvent =
  | { readonly event: 'user:balance'; readonly user: UserRow }
  | { readonly event: 'user:mint'; readonly mint: MintRow }
  | { readonly event: 'user:staking'; readonly stake: StakeRow }
  | { readonly event: 'global:collective_bonus'; readonly collectiveBonus: bigint }
  /** The reference backend's own event (not the spec's): a payment the chain's stream saw before the watcher credited it (server/chain/stream-signals.ts). */
  | { readonly event: 'chain:payment'; readonly payment: PaymentSignal }

/** A bond's payment `seen` or `withdrawn` (its trace taken back); a sale's payout `sent`, then `paid`. */
export interface PaymentSignal {
  readonly what: 'bond' | 'sale'
  readonly id: bigint
  readonly state: 'seen' | 'withdrawn' | 'sent' | 'paid'
}

/** Where live events go once a transaction commits: the sockets, or nowhere (admin CLI). */
export interface EventSink {
  toUser(userId: bigint, event: LiveEvent): void
  broadcast(event: LiveEvent): void
}

/**
 * What a transaction changed, as ids: small enough to cross to other instances (a PostgreSQL NOTIFY
 * carries at most 8 000 bytes), and read back from committed rows by each instance that holds sockets
 * for it (domain/user-events.ts, `readChange`).
 */
export type Change =
  | { readonly kind: 'balance'; readonly userId: bigint }
  | { readonly kind: 'mint'; readonly userId: bigint; readonly id: bigint }
  | { readonly kind: 'stake'; readonly userId: bigint; readonly id: bigint }
  | { readonly kind: 'collective'; readonly value: bigint }
  /** A session's refresh family was revoked: its access tokens stop working on every instance. */
  | { readonly kind: 'revoked'; readonly family: string }
  /** A setting changed (maintenance): every instance forgets what it kept of the settings. */
  | { readonly kind: 'setting'; readonly key: string }
  /** chain:payment: what the chain's stream saw of a bond's payment or a sale's payout (no row to read back). */
  | ({ readonly kind: 'payment'; readonly userId: bigint } & PaymentSignal)

/** One transaction's changes; the same key queued twice is sent once. */
export interface EventQueue {
  push(key: string, change: Change): void
  drain(): Change[]
}

export const createEventQueue = (): EventQueue => {
  let pending = new Map<string, Change>()
  return {
    push: (key, change) => {
      pending.delete(key)
      pending.set(key, change)
    },
    drain: () => {
      const list = [...pending.values()]
      pending = new Map()
      return list
    },
  }
}

/** Outside a transaction there is nothing to commit, so nothing may be queued. */
export const noQueue: EventQueue = {
  push: () => {
    throw new Error('live events are queued inside a transaction (inTx)')
  },
  drain: () => [],
}

/** Where committed changes go: to this instance's sockets, or through the cluster to every instance's (server/cluster/cluster.ts). */
export interface LiveEvents {
  deliver(changes: Change[]): Promise<void>
}

/** A change as JSON text and back (bigints as decimal strings). */
export const changeToJson = (c: Change): Record<string, string> =>
  Object.fromEntries(Object.entries(c).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : String(v)]))

export const changeFromJson = (o: Record<string, unknown>): Change | null => {
  const id = (k: string) => (typeof o[k] === 'string' && /^-?\d{1,20}$/.test(o[k] as string) ? BigInt(o[k] as string) : null)
  const userId = id('userId')
  switch (o.kind) {
    case 'balance':
      return userId === null ? null : { kind: 'balance', userId }
    case 'mint':
    case 'stake': {
      const rowId = id('id')
      return userId === null || rowId === null ? null : { kind: o.kind, userId, id: rowId }
    }
    case 'collective': {
      const value = id('value')
      return value === null ? null : { kind: 'collective', value }
    }
    case 'revoked':
      return typeof o.family === 'string' && o.family.length > 0 && o.family.length <= 100 ? { kind: 'revoked', family: o.family } : null
    case 'setting':
      return typeof o.key === 'string' && o.key.length > 0 && o.key.length <= 100 ? { kind: 'setting', key: o.key } : null
    case 'payment': {
      const rowId = id('id')
      const what = o.what === 'bond' || o.what === 'sale' ? o.what : null
      const state = o.state === 'seen' || o.state === 'withdrawn' || o.state === 'sent' || o.state === 'paid' ? o.state : null
      return userId === null || rowId === null || !what || !state ? null : { kind: 'payment', userId, id: rowId, what, state }
    }
    default:
      return null
  }
}
