import { Address } from '@ton/core'
import type { ServerContext } from '../context.ts'
import { allRows, big, run, str } from '../db/sql.ts'
import { commentCell, type LocalChain } from './local-chain.ts'

/** One sale the processor paid out (or failed to). */
export interface PayoutRecord {
  readonly withdrawalId: bigint
  readonly address: string
  readonly amountNano: bigint
  readonly outcome: 'completed' | 'retry'
  readonly detail?: string
}

export interface PayoutProcessorOptions {
  /** How often pending withdrawals are picked up (ms). 0: only when processOnce() is called. Default 1000. */
  readonly intervalMs?: number
  readonly onRecord?: (r: PayoutRecord) => void
}

export interface PayoutProcessor {
  readonly records: ReadonlyArray<PayoutRecord>
  /** Pays every pending withdrawal now (one at a time) and returns what happened. */
  processOnce(): Promise<PayoutRecord[]>
  stop(): void
}

/**
 * Sell on the chain: each `pending` withdrawal (server/domain/withdraw.ts) is paid from the treasury
 * wallet to its address, `amount_ton` nanotons (net_amount × the price the server quoted at
 * /withdraw/create, stored on the row), with the comment `axiom:sale:<id>`; the treasury pays the
 * forwarding fees, so the recipient receives amount_ton less only its own wallet's receive fee.
 * When the payment landed the row becomes `completed`. A payment that could not be made (treasury
 * short of TON, an address the chain refuses) leaves the row `pending` and is retried on the next
 * run: marking it `failed` would need a token refund the backend does not define.
 */
export const createPayoutProcessor = (chain: LocalChain, ctx: ServerContext, options: PayoutProcessorOptions = {}): PayoutProcessor => {
  const records: PayoutRecord[] = []
  const inFlight = new Set<bigint>()
  let running: Promise<PayoutRecord[]> | null = null

  const payOne = async (id: bigint, address: string, amount: bigint): Promise<PayoutRecord> => {
    let to: Address
    try {
      to = Address.parse(address)
    } catch {
      return { withdrawalId: id, address, amountNano: amount, outcome: 'retry', detail: 'unparsable address' }
    }
    try {
      const result = await chain.transfer(chain.treasury, [{ to, value: amount, body: commentCell(`axiom:sale:${id}`), bounce: false }])
      const landed = result.transactions.some((t) => {
        const m = t.inMessage
        return m?.info.type === 'internal' && m.info.dest.equals(to) && m.info.value.coins === amount
      })
      if (!landed) return { withdrawalId: id, address, amountNano: amount, outcome: 'retry', detail: 'the treasury did not send it (balance?)' }
    } catch (e) {
      return { withdrawalId: id, address, amountNano: amount, outcome: 'retry', detail: e instanceof Error ? e.message.split('\n')[0] : String(e) }
    }
    run(ctx.db, `UPDATE withdrawals SET status = 'completed' WHERE id = ? AND status = 'pending'`, id)
    return { withdrawalId: id, address, amountNano: amount, outcome: 'completed' }
  }

  const processOnce = (): Promise<PayoutRecord[]> => {
    if (running) return running.then(() => processOnce())
    running = (async () => {
      const done: PayoutRecord[] = []
      const rows = allRows(ctx.db, `SELECT id, address, amount_ton FROM withdrawals WHERE status = 'pending' ORDER BY id`)
      for (const row of rows) {
        const id = big(row, 'id')
        if (inFlight.has(id)) continue
        inFlight.add(id)
        try {
          const r = await payOne(id, str(row, 'address'), big(row, 'amount_ton'))
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
    processOnce,
    stop: () => {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}
