import type { Address } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import type { Lease } from '../cluster/cluster.ts'
import type { ServerContext } from '../domain/context.ts'
import { outgoingPayments, paymentRecords, type OutgoingPayment, type PaymentRecord } from './payment-rows.ts'
import { createPayoutSender, DEFAULT_MAX_FAILURES, type PayoutSender, type TreasurySigner } from './payouts.ts'
import { createChainWatcher, type ChainWatcher } from './watcher.ts'
import type { ColdSweep } from './cold-sweep.ts'
import { startStreamListener, type StreamListener, type StreamSettings } from './stream-listener.ts'
import { createPaymentSignals } from './stream-signals.ts'

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
  /**
   * The Streaming API v2 (AXIOM_TON_STREAM, AXIOM_TON_STREAM_KEY; server/chain/stream-listener.ts): each
   * treasury transaction it reports in a block wakes the watcher (and, for the treasury's own message,
   * the payouts after it), each (re)subscription runs a pass from the cursor, and the app hears of a
   * payment seen. What is credited still comes from the v4 history alone; the poll stays. None: poll only.
   */
  readonly stream?: StreamSettings | null
  /** A stream silent this long (not even a keepalive) is opened again (ms; default SILENCE_MS). */
  readonly streamSilenceMs?: number
}

export interface ChainService {
  readonly client: TonClient4
  readonly watcher: ChainWatcher
  readonly payouts: PayoutSender
  /** The stream's client, when AXIOM_TON_STREAM is set. */
  readonly stream: StreamListener | null
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
  const treasuryRaw = o.treasury.wallet.address.toRawString()
  const signals = o.stream ? createPaymentSignals(ctx, treasuryRaw) : null
  const log = o.log ?? ((msg: string, e?: unknown) => console.error(`[chain] ${msg}`, e ?? ''))
  /** A pass (passes coalesce: one woken during another runs once after it), the sales it confirmed told paid, then the payouts if asked. */
  const wake = async (thenPayouts: boolean) => {
    await watcher.pass()
    await signals?.afterPass().catch(() => undefined)
    if (thenPayouts) await payouts.pass()
  }
  let told: Promise<void> = Promise.resolve()
  const stream = o.stream
    ? startStreamListener({
        ...o.stream,
        address: o.treasury.wallet.address,
        log: (msg) => log(msg),
        ...(o.streamSilenceMs !== undefined ? { silenceMs: o.streamSilenceMs } : {}),
        // The stream replays nothing it missed: a (re)subscription reads the history from the cursor.
        onSubscribed: () => void wake(false),
        onNotice: (n) => {
          // One instance tells the app: the watcher's lease holder; in the order the notices came (an
          // invalidation after the pending snapshot it takes back).
          if (signals && leases.watcher.held()) told = told.then(() => signals.notice(n)).catch(() => undefined)
          // A pending trace is in no block: the history cannot show it yet. Confirmed and finalized can.
          if (n.type !== 'transactions' || n.finality === 'pending') return
          const mine = n.txs.filter((t) => t.account === treasuryRaw)
          if (mine.length === 0) return
          // The treasury's own message landed: its payouts are confirmed by the pass, and the next ones can go.
          void wake(mine.some((t) => t.source === null))
        },
      })
    : null
  return {
    client,
    watcher,
    payouts,
    stream,
    settle: async () => {
      await watcher.pass()
      await payouts.pass()
      await watcher.pass()
    },
    records: () => paymentRecords(ctx),
    outgoing: () => outgoingPayments(ctx),
    stop: async () => {
      for (const t of timers) clearInterval(t)
      await Promise.all([watcher.halt(), payouts.halt(), stream?.stop()])
    },
  }
}
