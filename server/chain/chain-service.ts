import type { Address } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import type { Lease } from '../cluster/cluster.ts'
import type { ServerContext } from '../domain/context.ts'
import { outgoingPayments, paymentRecords, type OutgoingPayment, type PaymentRecord } from './payment-rows.ts'
import { createPayoutSender, DEFAULT_MAX_FAILURES, type PayoutSender, type TreasurySigner } from './payouts.ts'
import { createChainWatcher, type ChainWatcher } from './watcher.ts'
import type { ColdSweep } from './cold-sweep.ts'

export interface ChainServiceOptions {
  /** The TON HTTP API v4 endpoint (AXIOM_TON_API): a public node, your own, or the local stack's. */
  readonly endpoint: string
  /**
   * A second, independent v4 endpoint (AXIOM_TON_API_CONFIRM; production requires it, on another
   * host): a payment is credited or refunded only when it shows the same transaction.
   */
  readonly confirmEndpoint?: string
  readonly treasury: TreasurySigner
  /** See ChainWatcherOptions.fromStart: true on the local chain only. */
  readonly fromStart: boolean
  /** How often the watcher reads the treasury's history (ms; 0: only when asked). Default 2000. */
  readonly pollMs?: number
  /** How often the payouts run (ms; 0: only when asked). Default 2000. */
  readonly payoutMs?: number
  readonly maxFailures?: number
  readonly minRefundNano?: bigint
  /** A v4 request's timeout (ms). Default 10 000. */
  readonly timeoutMs?: number
  readonly validForS?: number
  /** Where the watcher and the payouts say what they do and what failed (default stderr, `[chain] …`). */
  readonly log?: (msg: string, e?: unknown) => void
  /** The hot float and the cold wallet its excess is swept to (AXIOM_TREASURY_FLOAT, AXIOM_COLD_ADDRESS); none by default. */
  readonly sweep?: ColdSweep | null
}

export interface ChainService {
  readonly client: TonClient4
  readonly watcher: ChainWatcher
  readonly payouts: PayoutSender
  /** The watcher's pass, then the payouts', then the watcher's again (which sees what they sent land). */
  settle(): Promise<void>
  records(): Promise<PaymentRecord[]>
  outgoing(): Promise<OutgoingPayment[]>
  /** Stops the timers and waits for the passes under way: nothing touches the database after it. */
  stop(): Promise<void>
}

/** What the contract at `address` answers to `get_public_key` now, or null (not deployed, no such method). */
export const publicKeyOnChain = async (client: TonClient4, address: Address): Promise<Buffer | null> => {
  const last = await client.getLastBlock()
  const r = await client.runMethod(last.last.seqno, address, 'get_public_key')
  if (r.exitCode !== 0 && r.exitCode !== 1) return null
  return Buffer.from(r.reader.readBigNumber().toString(16).padStart(64, '0'), 'hex')
}

/** The watcher and the payouts of the backend, on their leases, through one TonClient4. */
export const startChainService = (
  ctx: ServerContext,
  leases: { watcher: Lease; payouts: Lease },
  o: ChainServiceOptions,
): ChainService => {
  const client = new TonClient4({ endpoint: o.endpoint, timeout: o.timeoutMs ?? 10_000 })
  const maxFailures = o.maxFailures ?? DEFAULT_MAX_FAILURES
  const watcher = createChainWatcher(ctx, {
    client,
    ...(o.confirmEndpoint ? { confirm: new TonClient4({ endpoint: o.confirmEndpoint, timeout: o.timeoutMs ?? 10_000 }) } : {}),
    treasury: o.treasury.wallet.address,
    lease: leases.watcher,
    fromStart: o.fromStart,
    maxFailures,
    ...(o.log ? { log: o.log } : {}),
    ...(o.minRefundNano !== undefined ? { minRefundNano: o.minRefundNano } : {}),
  })
  const payouts = createPayoutSender(ctx, {
    client,
    treasury: o.treasury,
    lease: leases.payouts,
    maxFailures,
    ...(o.log ? { log: o.log } : {}),
    ...(o.validForS !== undefined ? { validForS: o.validForS } : {}),
    ...(o.sweep ? { sweep: o.sweep } : {}),
  })
  const timers: ReturnType<typeof setInterval>[] = []
  const pollMs = o.pollMs ?? 2000
  const payoutMs = o.payoutMs ?? 2000
  if (pollMs > 0) timers.push(setInterval(() => void watcher.pass(), pollMs))
  if (payoutMs > 0) timers.push(setInterval(() => void payouts.pass(), payoutMs))
  for (const t of timers) t.unref()
  // At once, and each time this instance takes a lease over: catch up from the stored cursor.
  leases.watcher.onAcquired(() => void watcher.pass())
  leases.payouts.onAcquired(() => void payouts.pass())
  return {
    client,
    watcher,
    payouts,
    settle: async () => {
      await watcher.pass()
      await payouts.pass()
      await watcher.pass()
    },
    records: () => paymentRecords(ctx),
    outgoing: () => outgoingPayments(ctx),
    stop: async () => {
      for (const t of timers) clearInterval(t)
      await Promise.all([watcher.halt(), payouts.halt()])
    },
  }
}
