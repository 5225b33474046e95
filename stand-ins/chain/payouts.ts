import { Address } from '@ton/core'
import type { Lease, RunningServer, SaleDue } from '../../server/main.ts'
import { commentCell, readComment, type ChainTx, type LocalChain } from './local-chain.ts'

/** The comment that identifies a sale payout on the chain (one per withdrawal id). */
export const saleComment = (withdrawalId: bigint): string => `axiom:sale:${withdrawalId}`

/** One sale the processor paid out (or failed to). */
export interface PayoutRecord {
  readonly withdrawalId: bigint
  readonly address: string
  readonly amountNano: bigint
  /**
   * completed: the payment is on the chain and the row is `completed` (`recovered`: it was found on
   * the chain, not sent by this run). retry: not paid this time; the row is `pending` again, or
   * stays `sending` when the transfer failed in a way that may have sent it.
   */
  readonly outcome: 'completed' | 'retry'
  /** True when the payment of a row left `sending` was found on the chain (no second transfer). */
  readonly recovered?: boolean
  /** The hash (hex) of the treasury transaction that sent the payment. */
  readonly txHash?: string
  readonly detail?: string
}

export interface PayoutProcessorOptions {
  /** How often pending withdrawals are picked up (ms). 0: only when processOnce() is called. Default 1000. */
  readonly intervalMs?: number
  readonly onRecord?: (r: PayoutRecord) => void
  /**
   * The lease of the payout loop among the backend's instances (RunningServer.lease('payouts')): the
   * processor pays only while it holds it, and runs the recovery of `sending` rows each time it takes
   * it over, so instances sharing one PostgreSQL run one payout loop. Without one: always.
   */
  readonly lease?: Lease
}

export interface PayoutProcessor {
  readonly records: ReadonlyArray<PayoutRecord>
  /**
   * The start-up recovery, begun by createPayoutProcessor: every row left `sending` (by a crash) is
   * completed if its payment is on the chain, else sent again. Resolves with what it did.
   */
  readonly recovered: Promise<PayoutRecord[]>
  /** Pays every pending withdrawal now (one at a time), after settling rows left `sending`, and returns what happened. */
  processOnce(): Promise<PayoutRecord[]>
  stop(): void
}

/**
 * The treasury transaction that sent the payout of sale `withdrawalId` to `to` (an outgoing internal
 * message with its comment), if the chain has one. The comment is the payout's identity: only the
 * payout processor sends `axiom:sale:<id>`, once per row.
 */
export const findSalePayout = (chain: LocalChain, withdrawalId: bigint, to: Address): ChainTx | undefined => {
  const comment = saleComment(withdrawalId)
  return chain.transactionsOf(chain.treasury.wallet.address).find((t) =>
    t.tx.outMessages.values().some((m) => m.info.type === 'internal' && m.info.dest.equals(to) && readComment(m.body) === comment),
  )
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0] : String(e))

/**
 * Sell on the chain: each `pending` withdrawal (server/domain/withdraw.ts, its states in
 * server/domain/sale-payouts.ts) is paid from the treasury
 * wallet to its address, `amount_ton` nanotons (net_amount × the price the server quoted at
 * /withdraw/create, stored on the row), with the comment `axiom:sale:<id>`; the treasury pays the
 * forwarding fees, so the recipient receives amount_ton less only its own wallet's receive fee.
 *
 * Exactly once: the row becomes `sending` (committed) before the transfer, and `completed` once the
 * payment is seen on the chain. A row found `sending` — at start-up (`recovered`) or on a later run —
 * is completed if the treasury's transactions hold its comment, and sent again only if they do not
 * (the local chain runs each message tree to the end inside `send`, so "not on the chain" means "not
 * sent"; a real chain would also have to wait for the first message's valid_until).
 * A payment that could not be made (treasury short of TON, an address the chain refuses) puts the row
 * back to `pending` and is retried on the next run: marking it `failed` would need a token refund the
 * backend does not define.
 */
export const createPayoutProcessor = (chain: LocalChain, backend: Pick<RunningServer, 'payouts'>, options: PayoutProcessorOptions = {}): PayoutProcessor => {
  const sales = backend.payouts
  const records: PayoutRecord[] = []
  const inFlight = new Set<bigint>()
  let running: Promise<PayoutRecord[]> | null = null

  const payOne = async ({ id, address, amountNano: amount, state }: SaleDue): Promise<PayoutRecord | null> => {
    const base = { withdrawalId: id, address, amountNano: amount }
    let to: Address
    try {
      to = Address.parse(address)
    } catch {
      return { ...base, outcome: 'retry', detail: 'unparsable address' }
    }
    const completed = async (t: ChainTx, recovered: boolean): Promise<PayoutRecord> => {
      await sales.markSent(id)
      return { ...base, outcome: 'completed', txHash: t.tx.hash().toString('hex'), ...(recovered ? { recovered: true } : {}) }
    }

    if (state === 'sending') {
      // Left by a crash or a failed send: paid already if the chain has it.
      const sent = findSalePayout(chain, id, to)
      if (sent) return completed(sent, true)
    } else if (!(await sales.claim(id))) {
      return null // changed under us (another process): not ours to pay now
    }

    try {
      await chain.transfer(chain.treasury, [{ to, value: amount, body: commentCell(saleComment(id)), bounce: false }])
    } catch (e) {
      // The message may have left the treasury before the error (a listener, the store): look.
      const sent = findSalePayout(chain, id, to)
      if (sent) return completed(sent, false)
      return { ...base, outcome: 'retry', detail: `${firstLine(e)} (stays sending: looked up on the chain before any new send)` }
    }
    const sent = findSalePayout(chain, id, to)
    if (!sent) {
      // The transfer ran and sent nothing (IGNORE_ERRORS: the treasury skipped the message).
      await sales.release(id)
      return { ...base, outcome: 'retry', detail: 'the treasury did not send it (balance?)' }
    }
    return completed(sent, false)
  }

  const runRows = (states: ReadonlyArray<SaleDue['state']>): Promise<PayoutRecord[]> => {
    if (running) return running.then(() => runRows(states))
    running = (async () => {
      const done: PayoutRecord[] = []
      for (const sale of await sales.due(states)) {
        const id = sale.id
        if (inFlight.has(id)) continue
        inFlight.add(id)
        try {
          const r = await payOne(sale)
          if (!r) continue
          records.push(r)
          done.push(r)
          options.onRecord?.(r)
        } finally {
          inFlight.delete(id)
        }
      }
      return done
    })().finally(() => {
      running = null
    })
    return running
  }

  const lease = options.lease
  const processOnce = async () => (lease && !lease.held() ? [] : runRows(['pending', 'sending']))

  const recover = () =>
    runRows(['sending']).catch((e) => {
      console.error('[local-ton] payout recovery failed:', e)
      return [] as PayoutRecord[]
    })
  // Begun at once when this instance holds the lease (or there is none); else on each takeover.
  let recovered: Promise<PayoutRecord[]> = Promise.resolve([])
  if (lease) lease.onAcquired(() => void (recovered = recover()))
  else recovered = recover()

  const intervalMs = options.intervalMs ?? 1000
  let timer: ReturnType<typeof setInterval> | null = null
  if (intervalMs > 0) {
    timer = setInterval(() => {
      if (!running) processOnce().catch((e) => console.error('[local-ton] payout run failed:', e))
    }, intervalMs)
    timer.unref()
  }

  return {
    records,
    get recovered() {
      return recovered
    },
    processOnce,
    stop: () => {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}
