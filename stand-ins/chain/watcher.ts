import { Address } from '@ton/core'
import { BOND_PAYMENT_COMMENT } from '../../core/domain/bond-payment.ts'
import { BondNotPending, type RunningServer } from '../../server/main.ts'
import { commentCell, readComment, type ChainTx, type LocalChain } from './local-chain.ts'

/** What the watcher did with one payment into the treasury. */
export interface PaymentRecord {
  /** Unix seconds (the server's clock). */
  readonly at: number
  readonly txHash: string
  readonly from: string
  readonly amountNano: bigint
  readonly comment: string | null
  readonly mintId: bigint | null
  /**
   * activated: the bond became active; refunded: the whole amount was sent back; ignored: no bond
   * comment, kept; kept: refused like a refunded one (`reason`), but below MIN_REFUND_NANO, so kept
   * by the treasury instead of refunded (`detail` says so).
   */
  readonly outcome: 'activated' | 'refunded' | 'ignored' | 'kept'
  /** Why the payment was refused (refunded, or kept when below the refund minimum). */
  readonly reason?: 'underpaid' | 'expired' | 'duplicate' | 'not_pending' | 'unknown_bond' | 'refused'
  /** The server's message when markMintPaid refused, why a refused payment was kept, or a refund that failed to send. */
  readonly detail?: string
  /** Paid above the quoted amount_ton (kept with the bond; paid_nano records the full amount). */
  readonly overpaidNano?: bigint
}

/**
 * The smallest refused payment that is refunded: 0.01 TON. Sending a refund costs the treasury about
 * 0.0025 TON (measured on the sandbox: the wallet's compute fee 0.0013, the forward fee 0.0004, and
 * storage; up to 0.006 on a first send that pays all the storage due), on top of whatever came in, so
 * refunding dust with a wrong comment would drain the treasury. Below this the payment is kept and
 * recorded as `kept` with its refusal reason; at or above it, the whole amount is refunded as before.
 * The smallest bond (1 AXIOM, about 0.036 TON) costs well above it.
 */
export const MIN_REFUND_NANO = 10_000_000n

export interface PaymentWatcherOptions {
  /** Send refunds back to the payer (default true). Off: the payment is only recorded. */
  readonly refunds?: boolean
  /** Refused payments below this many nanotons are kept, not refunded (default MIN_REFUND_NANO). */
  readonly minRefundNano?: bigint
  readonly onRecord?: (r: PaymentRecord) => void
}

export interface PaymentWatcher {
  readonly records: ReadonlyArray<PaymentRecord>
  /** Resolves when every refund queued so far has been sent. */
  idle(): Promise<void>
  stop(): void
}

/** What the watcher needs of the backend (RunningServer fits). */
export type MintPayee = Pick<RunningServer, 'now' | 'bondPayment' | 'markMintPaid'>

/**
 * Watches every transaction into the treasury and matches it to a pending bond by its comment
 * `axiom:mint:<id>` and amount (docs/local-stack.md, "The watcher's rules"):
 * - exact or higher amount on a pending bond within its validity (`payBy`) → markMintPaid(id, amount);
 * - less than amount_ton, after payBy, for a bond that is no longer
 *   pending (a second payment), an unknown bond, or any refusal by markMintPaid → the whole amount
 *   is refunded to the sender with the comment `axiom:refund:<id>:<reason>`, unless it is below
 *   MIN_REFUND_NANO: then it is kept and recorded as `kept` (a refund would cost the treasury more
 *   than it returns);
 * - no bond comment → kept (a plain top-up of the treasury), recorded as ignored.
 */
export const createPaymentWatcher = (chain: LocalChain, server: MintPayee, options: PaymentWatcherOptions = {}): PaymentWatcher => {
  const records: PaymentRecord[] = []
  const refunds = options.refunds ?? true
  const minRefund = options.minRefundNano ?? MIN_REFUND_NANO
  let pending: Promise<unknown> = Promise.resolve()
  const treasury = chain.treasury.wallet.address

  const record = (r: PaymentRecord) => {
    records.push(r)
    options.onRecord?.(r)
    return r
  }

  const refund = (to: Address, amount: bigint, mintId: bigint | null, reason: NonNullable<PaymentRecord['reason']>) => {
    if (!refunds) return
    // Queued outside the transaction listener: the chain runs one message tree at a time.
    pending = pending.then(async () => {
      try {
        await chain.transfer(chain.treasury, [{ to, value: amount, body: commentCell(`axiom:refund:${mintId ?? 'unknown'}:${reason}`) }])
      } catch (e) {
        console.error(`[local-ton] refund of ${amount} to ${to.toRawString()} failed:`, e)
      }
    })
  }

  const handle = async (t: ChainTx): Promise<void> => {
    if (!t.address.equals(treasury)) return
    const msg = t.tx.inMessage
    if (!msg || msg.info.type !== 'internal' || msg.info.bounced) return
    const from = msg.info.src
    const amount = msg.info.value.coins
    const comment = readComment(msg.body)
    const base = { at: server.now(), txHash: t.tx.hash().toString('hex'), from: from.toRawString(), amountNano: amount, comment }
    const m = comment ? BOND_PAYMENT_COMMENT.exec(comment.trim()) : null
    if (!m) {
      record({ ...base, mintId: null, outcome: 'ignored' })
      return
    }
    const mintId = BigInt(m[1]!)
    const refused = (reason: NonNullable<PaymentRecord['reason']>, detail?: string) => {
      if (amount < minRefund) {
        const why = `${amount} nanoton is below the refund minimum of ${minRefund}: kept, not refunded`
        console.warn(`[local-ton] payment ${base.txHash} from ${base.from} (${comment}, ${reason}): ${why}`)
        record({ ...base, mintId, outcome: 'kept', reason, detail: detail ? `${detail}; ${why}` : why })
        return
      }
      record({ ...base, mintId, outcome: 'refunded', reason, ...(detail ? { detail } : {}) })
      refund(from, amount, mintId, reason)
    }
    const bond = await server.bondPayment(mintId)
    if (!bond) return refused('unknown_bond')
    if (bond.status !== 'pending') return refused(bond.status === 'canceled' ? 'not_pending' : 'duplicate', `bond is ${bond.status}`)
    if (server.now() > bond.payBy) return refused('expired')
    const expected = bond.amountNano
    if (amount < expected) return refused('underpaid', `paid ${amount}, expected ${expected}`)
    try {
      await server.markMintPaid(mintId, amount)
    } catch (e) {
      if (e instanceof BondNotPending) return refused('duplicate', e.message)
      return refused('refused', e instanceof Error ? e.message : String(e))
    }
    record({ ...base, mintId, outcome: 'activated', ...(amount > expected ? { overpaidNano: amount - expected } : {}) })
  }

  // Payments are handled one at a time, in chain order, each after the backend answered the last.
  const off = chain.onTransactions((txs) => {
    for (const t of txs)
      pending = pending.then(() =>
        handle(t).catch((e: unknown) => console.error(`[local-ton] payment ${t.tx.hash().toString('hex')} not handled:`, e)),
      )
  })

  return {
    records,
    idle: async () => {
      let seen: Promise<unknown>
      do {
        seen = pending
        await seen
      } while (seen !== pending)
    },
    stop: off,
  }
}
