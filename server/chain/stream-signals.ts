import { BOND_PAYMENT_COMMENT } from '../../core/domain/bond-payment.ts'
import { allRows, big, getRow, str } from '../db/sql.ts'
import type { ServerContext } from '../domain/context.ts'
import type { Change } from '../domain/events.ts'
import { hashHex, type StreamNotice } from './stream-listener.ts'

/**
 * What the app is told from the stream before the watcher's history has it (the `chain:payment`
 * socket event): a bond's payment seen (`seen`, from the trace's `pending` or `confirmed` snapshot)
 * and taken back (`withdrawn`, its trace invalidated before the bond was credited); a sale's payout
 * sent (`sent`, the treasury's message in a trace) and then `paid` once the watcher confirmed it. A
 * signal credits nothing: the bond becomes active, and the sale completed, only by the watcher's
 * reading of the v4 history (`user:mint` then says "New Bond created").
 */
export interface PaymentSignals {
  notice(n: StreamNotice): Promise<void>
  /** After a watcher pass: each sale told `sent` whose payout the watcher has confirmed is told `paid`. */
  afterPass(): Promise<void>
}

/** Traces and sales remembered at most (the oldest are forgotten first). */
export const SIGNALS_KEPT = 1_000

const payment = (userId: bigint, id: bigint, what: 'bond' | 'sale', state: 'seen' | 'withdrawn' | 'sent' | 'paid'): Change => ({ kind: 'payment', userId, id, what, state })

export const createPaymentSignals = (ctx: ServerContext, treasuryRaw: string): PaymentSignals => {
  /** Per trace, the bonds told `seen` (withdrawn if it is invalidated). */
  const bondTraces = new Map<string, Array<{ userId: bigint; mintId: bigint }>>()
  const toldSeen = new Set<bigint>()
  /** Outgoing payment id → the sale told `sent`. */
  const sales = new Map<bigint, { userId: bigint; withdrawalId: bigint }>()
  const trim = <K, V>(m: Map<K, V> | Set<K>) => {
    while (m.size > SIGNALS_KEPT) m.delete(m.keys().next().value as K)
  }
  const tell = async (changes: Change[]) => {
    if (changes.length === 0) return
    try {
      await ctx.live.deliver(changes)
    } catch {
      // A signal lost is only a signal: the credit's own event follows.
    }
  }

  const onTransactions = async (n: Extract<StreamNotice, { type: 'transactions' }>) => {
    const out: Change[] = []
    for (const tx of n.txs) {
      if (tx.account !== treasuryRaw) continue
      if (tx.source !== null) {
        if (n.finality === 'finalized') continue
        const m = tx.comment ? BOND_PAYMENT_COMMENT.exec(tx.comment.trim()) : null
        if (!m) continue
        const mintId = BigInt(m[1]!)
        if (toldSeen.has(mintId)) continue
        const row = await getRow(ctx.db, 'SELECT user_id, status FROM mints WHERE id = ?', mintId)
        // Only an unpaid bond: one credited already has its own event.
        if (!row || str(row, 'status') !== 'pending') continue
        const userId = big(row, 'user_id')
        toldSeen.add(mintId)
        trim(toldSeen)
        bondTraces.set(n.hashNorm, [...(bondTraces.get(n.hashNorm) ?? []), { userId, mintId }])
        trim(bondTraces)
        out.push(payment(userId, mintId, 'bond', 'seen'))
      } else {
        // The treasury's own message: the sales it pays, known by its normalized hash (payouts.ts records it before sending).
        // Only while they are in flight: the trace's finalized snapshot comes after the watcher confirmed
        // them (told `paid`), and would tell them `sent` again.
        const hex = hashHex(n.hashNorm)
        if (!hex) continue
        const rows = await allRows(
          ctx.db,
          `SELECT o.id, o.withdrawal_id, w.user_id FROM outgoing_payments o JOIN withdrawals w ON w.id = o.withdrawal_id
            WHERE o.msg_hash = ? AND o.kind = 'sale' AND o.state = 'sending'`,
          hex,
        )
        for (const r of rows) {
          const id = big(r, 'id')
          if (sales.has(id)) continue
          const sale = { userId: big(r, 'user_id'), withdrawalId: big(r, 'withdrawal_id') }
          sales.set(id, sale)
          trim(sales)
          out.push(payment(sale.userId, sale.withdrawalId, 'sale', 'sent'))
        }
      }
    }
    if (n.finality === 'finalized') bondTraces.delete(n.hashNorm)
    await tell(out)
  }

  return {
    notice: async (n) => {
      if (n.type === 'transactions') return onTransactions(n)
      const bonds = bondTraces.get(n.hashNorm) ?? []
      bondTraces.delete(n.hashNorm)
      const out: Change[] = []
      for (const b of bonds) {
        toldSeen.delete(b.mintId)
        const row = await getRow(ctx.db, 'SELECT status FROM mints WHERE id = ?', b.mintId)
        if (row && str(row, 'status') === 'pending') out.push(payment(b.userId, b.mintId, 'bond', 'withdrawn'))
      }
      await tell(out)
    },
    afterPass: async () => {
      if (sales.size === 0) return
      const out: Change[] = []
      for (const [id, sale] of [...sales]) {
        const row = await getRow(ctx.db, 'SELECT state FROM outgoing_payments WHERE id = ?', id)
        const state = row ? str(row, 'state') : 'gone'
        if (state === 'sending') continue
        // Passes overlap (a block's notice and the next wake each end in one): the first to get here tells it.
        if (!sales.delete(id)) continue
        if (state === 'paid') out.push(payment(sale.userId, sale.withdrawalId, 'sale', 'paid'))
      }
      await tell(out)
    },
  }
}
