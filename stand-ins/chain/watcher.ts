import { Address } from '@ton/core'
import { BOND_PAYMENT_COMMENT } from '../../core/domain/bond-payment.ts'
import { BondNotPending, CursorMoved, DomainError, type ChainCursor, type Lease, type RunningServer } from '../../server/main.ts'
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
  /** The server's message when creditBondPayment refused, why a refused payment was kept, or a refund that failed to send. */
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

/** The name of the treasury watcher's cursor in the backend (RunningServer.readChainCursor). */
export const TREASURY_CURSOR = 'treasury'

export interface PaymentWatcherOptions {
  /**
   * The lease of the watcher among the backend's instances (RunningServer.lease('chain-watcher')):
   * only its holder handles payments; each time it takes the lease it catches up from the cursor.
   * Required: a watcher that handled payments on every instance would pay bonds' refunds twice.
   */
  readonly lease: Lease
  /** The cursor's name in the backend (default TREASURY_CURSOR). */
  readonly cursor?: string
  /** Send refunds back to the payer (default true). Off: the payment is only recorded. */
  readonly refunds?: boolean
  /** Refused payments below this many nanotons are kept, not refunded (default MIN_REFUND_NANO). */
  readonly minRefundNano?: bigint
  /** After an error of the backend (not CursorMoved), the next try comes this many ms later (default 1000). */
  readonly retryMs?: number
  readonly onRecord?: (r: PaymentRecord) => void
}

export interface PaymentWatcher {
  /** What this watcher handled (an instance that never held the lease has none). */
  readonly records: ReadonlyArray<PaymentRecord>
  /** Resolves when every transaction seen so far is handled and every refund queued so far sent. */
  idle(): Promise<void>
  stop(): void
}

/** What the watcher needs of the backend (RunningServer fits). */
export type MintPayee = Pick<RunningServer, 'now' | 'bondPayment' | 'readChainCursor' | 'advanceChainCursor' | 'creditBondPayment'>

const hashOf = (t: ChainTx): string => t.tx.hash().toString('hex')

/**
 * Watches every transaction into the treasury and matches it to a pending bond by its comment
 * `axiom:mint:<id>` and amount: credit it, refund it (`axiom:refund:<id>:<reason>`, unless below
 * MIN_REFUND_NANO), keep it, or, when the backend fails, try again later (docs/local-stack.md, "The
 * watcher's rules").
 *
 * Only the holder of `options.lease` handles anything. Every transaction moves the backend's cursor
 * by compare-and-set (an activation in the credit's own database transaction, any other outcome
 * before its refund is queued), so none is handled twice; on CursorMoved the watcher re-reads the
 * cursor with the lease, or waits for it without. A cursor this chain does not hold (a database kept
 * across restarts of the local chain) counts as the start.
 */
export const createPaymentWatcher = (chain: LocalChain, server: MintPayee, options: PaymentWatcherOptions): PaymentWatcher => {
  const records: PaymentRecord[] = []
  const refunds = options.refunds ?? true
  const minRefund = options.minRefundNano ?? MIN_REFUND_NANO
  const lease = options.lease
  const name = options.cursor ?? TREASURY_CURSOR
  const retryMs = options.retryMs ?? 1000
  const treasury = chain.treasury.wallet.address
  let pending: Promise<unknown> = Promise.resolve()
  let stopped = false
  /** Handling: the lease was taken and the cursor has not moved under this watcher since. */
  let active = false
  /** Where this watcher holds the stored cursor to be; undefined: read it before handling anything. */
  let cursor: ChainCursor | null | undefined
  /** The index, in the treasury's transactions, of the first one after `cursor`. */
  let nextIndex = 0
  let kickQueued = false
  let retry: ReturnType<typeof setTimeout> | null = null

  const enqueue = (job: () => Promise<void>) => {
    pending = pending.then(job).catch((e: unknown) => console.error('[local-ton] payment watcher:', e))
  }

  const record = (r: PaymentRecord) => {
    records.push(r)
    options.onRecord?.(r)
    return r
  }

  const refund = async (to: Address, amount: bigint, mintId: bigint | null, reason: NonNullable<PaymentRecord['reason']>) => {
    if (!refunds) return
    try {
      await chain.transfer(chain.treasury, [{ to, value: amount, body: commentCell(`axiom:refund:${mintId ?? 'unknown'}:${reason}`) }])
    } catch (e) {
      console.error(`[local-ton] refund of ${amount} to ${to.toRawString()} failed:`, e)
    }
  }

  /** Handles one treasury transaction, moving the cursor from `from` to `to`; throws CursorMoved or a backend error. */
  const handle = async (t: ChainTx, from: ChainCursor | null, to: ChainCursor): Promise<void> => {
    const advance = () => server.advanceChainCursor(name, from, to)
    const msg = t.tx.inMessage
    // The treasury's own sends (refunds, payouts) and bounces: nothing to match, but handled all the same.
    if (!msg || msg.info.type !== 'internal' || msg.info.bounced) return advance()
    const sender = msg.info.src
    const amount = msg.info.value.coins
    const comment = readComment(msg.body)
    const base = { at: server.now(), txHash: to.txHash, from: sender.toRawString(), amountNano: amount, comment }
    const m = comment ? BOND_PAYMENT_COMMENT.exec(comment.trim()) : null
    if (!m) {
      await advance()
      record({ ...base, mintId: null, outcome: 'ignored' })
      return
    }
    const mintId = BigInt(m[1]!)
    // The cursor moves first: a crash after it loses this refund, never sends it twice.
    const refused = async (reason: NonNullable<PaymentRecord['reason']>, detail?: string) => {
      await advance()
      if (amount < minRefund) {
        const why = `${amount} nanoton is below the refund minimum of ${minRefund}: kept, not refunded`
        console.warn(`[local-ton] payment ${base.txHash} from ${base.from} (${comment}, ${reason}): ${why}`)
        record({ ...base, mintId, outcome: 'kept', reason, detail: detail ? `${detail}; ${why}` : why })
        return
      }
      record({ ...base, mintId, outcome: 'refunded', reason, ...(detail ? { detail } : {}) })
      await refund(sender, amount, mintId, reason)
    }
    const bond = await server.bondPayment(mintId)
    if (!bond) return refused('unknown_bond')
    if (bond.status !== 'pending') return refused(bond.status === 'canceled' ? 'not_pending' : 'duplicate', `bond is ${bond.status}`)
    if (server.now() > bond.payBy) return refused('expired')
    const expected = bond.amountNano
    if (amount < expected) return refused('underpaid', `paid ${amount}, expected ${expected}`)
    try {
      await server.creditBondPayment(mintId, amount, { name, expected: from, next: to })
    } catch (e) {
      if (e instanceof BondNotPending) return refused('duplicate', e.message)
      if (e instanceof DomainError) return refused('refused', e.message)
      // CursorMoved, or the backend failed (its database unreachable): not a refusal, nothing refunded.
      throw e
    }
    record({ ...base, mintId, outcome: 'activated', ...(amount > expected ? { overpaidNano: amount - expected } : {}) })
  }

  /** After an error of the backend: the loop runs again in retryMs, from the cursor it reads again. */
  const retryLater = () => {
    if (retry || stopped) return
    retry = setTimeout(() => {
      retry = null
      kick()
    }, retryMs)
    retry.unref()
  }

  /** Handles, in chain order, every treasury transaction after the cursor, up to the end of the log. */
  const drain = async (): Promise<void> => {
    for (;;) {
      if (stopped || !active) return
      if (!lease.held()) {
        // Another instance may hold it now: it catches up from the stored cursor; so will this one when it takes it back.
        active = false
        return
      }
      const txs = chain.transactionsOf(treasury)
      if (cursor === undefined) {
        try {
          cursor = await server.readChainCursor(name)
        } catch (e) {
          console.error(`[local-ton] chain cursor ${name} not read (tried again):`, e)
          return retryLater()
        }
        const at = cursor ? txs.findIndex((t) => hashOf(t) === cursor!.txHash) : -1
        if (cursor && at < 0) console.warn(`[local-ton] chain cursor ${name} (${cursor.lt}:${cursor.txHash}) is not on this chain: handling it from its start`)
        nextIndex = at + 1
        continue
      }
      const t = txs[nextIndex]
      if (!t) return
      const to: ChainCursor = { lt: t.tx.lt, txHash: hashOf(t) }
      try {
        await handle(t, cursor, to)
      } catch (e) {
        cursor = undefined
        if (e instanceof CursorMoved) {
          if (lease.held()) {
            // The lease is ours: the mover was the instance that held it before, finishing the
            // transaction it had begun before it went. Caught up again from where it left the cursor.
            console.warn(`[local-ton] payment watcher: ${e.message}; catching up from the stored cursor`)
            continue
          }
          console.warn(`[local-ton] payment watcher stops: ${e.message}; it catches up again when it takes the lease`)
          active = false
          return
        }
        console.error(`[local-ton] payment ${to.txHash} not handled (tried again from the cursor):`, e)
        return retryLater()
      }
      cursor = to
      nextIndex += 1
    }
  }

  /** Queues one pass of the loop, unless one is queued and not yet begun (it will see the new transactions). */
  const kick = () => {
    if (kickQueued) return
    kickQueued = true
    enqueue(async () => {
      kickQueued = false
      await drain()
    })
  }

  // Live transactions: handled only while this instance holds the lease and its cursor is its own.
  const off = chain.onTransactions((txs) => {
    if (stopped || !active || !lease.held()) return
    if (txs.some((t) => t.address.equals(treasury))) kick()
  })
  // At once when this instance holds the lease (always on SQLite), else each time it takes it over.
  lease.onAcquired(() => {
    if (stopped) return
    enqueue(async () => {
      active = true
      cursor = undefined
      await drain()
    })
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
    stop: () => {
      stopped = true
      active = false
      if (retry) clearTimeout(retry)
      retry = null
      off()
    },
  }
}
