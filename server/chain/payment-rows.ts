import { Address } from '@ton/core'
import { BOND_PAYMENT_COMMENT } from '../../core/domain/bond-payment.ts'
import { inTx, type ServerContext } from '../domain/context.ts'
import { allRows, big, getRow, insertRow, run, str, type Row } from '../db/sql.ts'
import { advanceChainCursor, type ChainCursor } from '../domain/chain-cursor.ts'
import { DomainError } from '../domain/errors.ts'
import { bondPayment, markMintPaid } from '../domain/mints.ts'
import { completeSale, completeSaleFoundPaid } from '../domain/sale-payouts.ts'
import { audit, type AuditEvent } from '../domain/audit.ts'
import { recordOperation } from '../domain/ledger.ts'

/**
 * The database side of the chain: what the watcher decided about each payment into the treasury
 * (`chain_payments`, one row per transaction hash: credited at most once), and the outgoing payments
 * the treasury owes (`outgoing_payments`: sales and refunds in one queue). Each decision commits with
 * the move of the watcher's cursor, so a restart neither loses nor repeats one.
 */

/**
 * What a refund's sending costs the treasury, kept from the refund (0.01 TON): a stated estimate with a
 * margin. Measured on the local sandbox (mainnet's fee config; tests/chain/refund-minimum.test.ts):
 * receiving a payment and sending one refund message costs a v4r2 treasury about 0.0028 TON, a W5
 * one about 0.0035 TON (gas, forwarding, storage).
 */
export const REFUND_FEE_NANO = 10_000_000n
/**
 * The smallest refund sent (0.01 TON), after the fee: a refused payment below REFUND_FEE_NANO +
 * MIN_REFUND_NANO (0.02 TON) is kept, not refunded.
 */
export const MIN_REFUND_NANO = 10_000_000n

/**
 * How much less than a bond's amount still pays it (0.001 TON): the network's forward fee, which a
 * wallet sending with mode 0 (@ton/ton's sendTransfer default, some wallets and exchanges) takes out
 * of the value, so the treasury receives about 0.0004 TON less than was asked (measured on the local
 * sandbox, mainnet's fee config; tests/chain/fee-shortfall.test.ts). Such a payment activates the
 * bond at its full amount; the shortfall is stated in the payment's `detail`. Anything shorter is
 * refunded (`underpaid`).
 */
export const FORWARD_FEE_TOLERANCE_NANO = 1_000_000n

/** How refusals are refunded: the fee kept from each refund, and the least refund worth sending. */
export interface RefundRule {
  readonly feeNano: bigint
  readonly minNano: bigint
}
export const DEFAULT_REFUND_RULE: RefundRule = { feeNano: REFUND_FEE_NANO, minNano: MIN_REFUND_NANO }

/**
 * `held`: the confirming endpoint (AXIOM_TON_API_CONFIRM) did not show the same transaction, so it
 * was neither credited nor refunded; the operator sees it (`admin payments held`).
 */
export type PaymentOutcome = 'activated' | 'refunded' | 'kept' | 'ignored' | 'held'
export type RefusalReason = 'underpaid' | 'expired' | 'duplicate' | 'not_pending' | 'unknown_bond' | 'refused'

/** An inbound internal payment into the treasury, as the chain has it. */
export interface InboundPayment {
  readonly txHash: string
  readonly lt: bigint
  /** The transaction's own time (unix seconds): what a bond's validity is judged by. */
  readonly txNow: number
  readonly from: string
  readonly amountNano: bigint
  readonly comment: string | null
}

export interface PaymentRecord extends InboundPayment {
  readonly mintId: bigint | null
  readonly outcome: PaymentOutcome
  readonly reason: RefusalReason | null
  readonly detail: string | null
  readonly overpaidNano: bigint | null
}

/** `sweep`: the treasury's excess over its float, to the cold wallet (server/chain/cold-sweep.ts). */
export type OutgoingKind = 'sale' | 'refund' | 'sweep'
/**
 * queued → sending (seqno, valid_until, message hash recorded before the send) → paid; failed after
 * too many tries. `cancelled`: a sweep given back to the queue (its message expired or was skipped),
 * never signed again with its old amount: the next sweep is reckoned from the balance of its moment.
 */
export type OutgoingState = 'queued' | 'sending' | 'paid' | 'failed' | 'cancelled'

export interface OutgoingPayment {
  readonly id: bigint
  readonly kind: OutgoingKind
  readonly withdrawalId: bigint | null
  readonly to: string
  readonly amountNano: bigint
  readonly comment: string
  readonly state: OutgoingState
  readonly seqno: number | null
  readonly validUntil: number | null
  readonly msgHash: string | null
  readonly boc: string | null
  readonly failures: number
  readonly lastError: string | null
  readonly paidTxHash: string | null
}

export const saleComment = (withdrawalId: bigint): string => `axiom:sale:${withdrawalId}`
export const refundComment = (mintId: bigint | null, reason: RefusalReason): string => `axiom:refund:${mintId ?? 'unknown'}:${reason}`

/** An address in raw form, whichever form it is given in (a friendly and a raw one name the same account). */
const rawOf = (a: string): string => {
  try {
    return Address.parse(a).toRawString()
  } catch {
    return a
  }
}

const nullable = (r: Row, c: string) => (r[c] === null || r[c] === undefined ? null : r[c])

const outgoingOf = (r: Row): OutgoingPayment => ({
  id: big(r, 'id'),
  kind: str(r, 'kind') as OutgoingKind,
  withdrawalId: nullable(r, 'withdrawal_id') === null ? null : big(r, 'withdrawal_id'),
  to: str(r, 'to_address'),
  amountNano: big(r, 'amount_nano'),
  comment: str(r, 'comment'),
  state: str(r, 'state') as OutgoingState,
  seqno: nullable(r, 'seqno') === null ? null : Number(big(r, 'seqno')),
  validUntil: nullable(r, 'valid_until') === null ? null : Number(big(r, 'valid_until')),
  msgHash: nullable(r, 'msg_hash') === null ? null : str(r, 'msg_hash'),
  boc: nullable(r, 'boc') === null ? null : str(r, 'boc'),
  failures: Number(big(r, 'failures')),
  lastError: nullable(r, 'last_error') === null ? null : str(r, 'last_error'),
  paidTxHash: nullable(r, 'paid_tx_hash') === null ? null : str(r, 'paid_tx_hash'),
})

const recordOf = (r: Row): PaymentRecord => ({
  txHash: str(r, 'tx_hash'),
  lt: big(r, 'lt'),
  txNow: Number(big(r, 'tx_now')),
  from: str(r, 'source'),
  amountNano: big(r, 'amount_nano'),
  comment: nullable(r, 'comment') === null ? null : str(r, 'comment'),
  mintId: nullable(r, 'mint_id') === null ? null : big(r, 'mint_id'),
  outcome: str(r, 'outcome') as PaymentOutcome,
  reason: nullable(r, 'reason') === null ? null : (str(r, 'reason') as RefusalReason),
  detail: nullable(r, 'detail') === null ? null : str(r, 'detail'),
  overpaidNano: nullable(r, 'overpaid_nano') === null ? null : big(r, 'overpaid_nano'),
})

/** The watcher's decisions, oldest first. */
export const paymentRecords = async (ctx: ServerContext): Promise<PaymentRecord[]> =>
  (await allRows(ctx.db, 'SELECT * FROM chain_payments ORDER BY lt')).map(recordOf)

export const outgoingPayments = async (ctx: ServerContext, states?: ReadonlyArray<OutgoingState>): Promise<OutgoingPayment[]> =>
  (
    await (states
      ? allRows(ctx.db, `SELECT * FROM outgoing_payments WHERE state IN (${states.map(() => '?').join(', ')}) ORDER BY id`, ...states)
      : allRows(ctx.db, 'SELECT * FROM outgoing_payments ORDER BY id'))
  ).map(outgoingOf)

export const outgoingPayment = async (ctx: ServerContext, id: bigint): Promise<OutgoingPayment | null> => {
  const r = await getRow(ctx.db, 'SELECT * FROM outgoing_payments WHERE id = ?', id)
  return r ? outgoingOf(r) : null
}

const insertRecord = (ctx: ServerContext, p: InboundPayment, r: Omit<PaymentRecord, keyof InboundPayment>) =>
  run(
    ctx.db,
    `INSERT INTO chain_payments (tx_hash, lt, tx_now, source, amount_nano, comment, mint_id, outcome, reason, detail, overpaid_nano, handled_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    p.txHash,
    p.lt,
    p.txNow,
    p.from,
    p.amountNano,
    p.comment,
    r.mintId,
    r.outcome,
    r.reason,
    r.detail,
    r.overpaidNano,
    ctx.now(),
  )

/** A payment's decision as the audit log keeps it. */
const paymentDetail = (r: PaymentRecord) => ({
  lt: r.lt,
  from: r.from,
  amountNano: r.amountNano,
  comment: r.comment,
  mintId: r.mintId,
  ...(r.reason ? { reason: r.reason } : {}),
  ...(r.detail ? { detail: r.detail } : {}),
})

/** An outgoing payment's event: a sweep's own, else a payout's (sales and refunds). */
const outgoingEvent = (kind: OutgoingKind, what: 'signed' | 'paid' | 'failed'): AuditEvent =>
  kind === 'sweep' ? (what === 'failed' ? 'sweep.cancelled' : `sweep.${what}`) : `payout.${what}`

const outgoingDetail = (row: OutgoingPayment) => ({ kind: row.kind, to: row.to, amountNano: row.amountNano, withdrawalId: row.withdrawalId, comment: row.comment })

const enqueue = (ctx: ServerContext, kind: OutgoingKind, ref: string, to: string, amount: bigint, comment: string, withdrawalId: bigint | null) =>
  insertRow(
    ctx.db,
    `INSERT INTO outgoing_payments (kind, ref, withdrawal_id, to_address, amount_nano, comment, state, failures, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?)`,
    kind,
    ref,
    withdrawalId,
    to,
    amount,
    comment,
    ctx.now(),
    ctx.now(),
  )

/**
 * The history row of a bond payment's refund, in the refund's transaction: the coin going back to the
 * wallet it came from (`wallet`, in TON: no balance of the user's moves), for the bond's owner. A
 * payment naming no bond (`unknown_bond`) has no owner to show it to.
 */
const recordRefund = async (ctx: ServerContext, mintId: bigint, refundNano: bigint): Promise<void> => {
  const owner = await getRow(ctx.db, 'SELECT user_id FROM mints WHERE id = ?', mintId)
  if (owner) await recordOperation(ctx, big(owner, 'user_id'), 'bond_refund', 'wallet', 'ton', refundNano, `Refund of bond #${mintId} payment`)
}

/**
 * Decides one inbound payment, in one transaction with the cursor's move from `from` to `to`: a
 * bond activated, or a refund queued, or the payment kept or ignored, and its row in
 * `chain_payments` (whose key is the transaction hash: a second decision about it cannot commit).
 * Throws CursorMoved (another watcher has it) or a backend failure; a refusal is a decision.
 */
export const decidePayment = async (
  ctx: ServerContext,
  p: InboundPayment,
  step: { name: string; from: ChainCursor | null; to: ChainCursor },
  refunds: RefundRule = DEFAULT_REFUND_RULE,
): Promise<PaymentRecord> => {
  const decide = (forceRefusal: string | null) =>
    inTx(ctx, async (ctx) => {
      const r = await decideIn(ctx, forceRefusal)
      await audit(ctx, `payment.${r.outcome}`, r.txHash, paymentDetail(r))
      return r
    })
  const decideIn = (ctx: ServerContext, forceRefusal: string | null): Promise<PaymentRecord> =>
    (async () => {
      await advanceChainCursor(ctx, { name: step.name, expected: step.from, next: step.to })
      const m = p.comment ? BOND_PAYMENT_COMMENT.exec(p.comment.trim()) : null
      const none = { mintId: null, reason: null, detail: null, overpaidNano: null }
      if (!m) {
        await insertRecord(ctx, p, { ...none, outcome: 'ignored' })
        return { ...p, ...none, outcome: 'ignored' as const }
      }
      const mintId = BigInt(m[1]!)
      const refused = async (reason: RefusalReason, detail: string | null): Promise<PaymentRecord> => {
        // The refund is the payment less what sending it costs (the treasury does not pay for a payer's
        // mistake); one that would come to less than the minimum is not sent.
        const refund = p.amountNano - refunds.feeNano
        if (refund < refunds.minNano) {
          const why = `${p.amountNano} nanoton is below the refund minimum of ${refunds.minNano} plus the network fee of ${refunds.feeNano}: kept, not refunded`
          const r = { mintId, outcome: 'kept' as const, reason, detail: detail ? `${detail}; ${why}` : why, overpaidNano: null }
          await insertRecord(ctx, p, r)
          return { ...p, ...r }
        }
        const r = { mintId, outcome: 'refunded' as const, reason, detail, overpaidNano: null }
        await insertRecord(ctx, p, r)
        await enqueue(ctx, 'refund', `refund:${p.txHash}`, p.from, refund, refundComment(mintId, reason), null)
        await recordRefund(ctx, mintId, refund)
        return { ...p, ...r }
      }
      if (forceRefusal !== null) return refused('refused', forceRefusal)
      const bond = await bondPayment(ctx, mintId)
      if (!bond) return refused('unknown_bond', null)
      if (bond.status !== 'pending') return refused(bond.status === 'canceled' ? 'not_pending' : 'duplicate', `bond is ${bond.status}`)
      // The chain's time of the payment, not the server's: a watcher that was down judges it as it was.
      if (p.txNow > bond.payBy) return refused('expired', `paid at ${p.txNow}, due by ${bond.payBy}`)
      const short = bond.amountNano - p.amountNano
      if (short > FORWARD_FEE_TOLERANCE_NANO) return refused('underpaid', `paid ${p.amountNano}, expected ${bond.amountNano}`)
      // Short by no more than the network's forward fee (a wallet that took it out of the value): paid in full.
      // The source address goes along: a bond paid from the buyer's referrer's own wallet earns no referral bonus.
      await markMintPaid(ctx, mintId, short > 0n ? bond.amountNano : p.amountNano, p.from)
      const detail = short > 0n ? `paid ${p.amountNano}, ${short} nanoton short of ${bond.amountNano}: within the forward-fee tolerance of ${FORWARD_FEE_TOLERANCE_NANO}, credited in full` : null
      const r = { mintId, outcome: 'activated' as const, reason: null, detail, overpaidNano: p.amountNano > bond.amountNano ? p.amountNano - bond.amountNano : null }
      await insertRecord(ctx, p, r)
      return { ...p, ...r }
    })()
  try {
    return await decide(null)
  } catch (e) {
    // A rule of the backend refused the credit (nothing was written): refunded as refused.
    if (e instanceof DomainError) return decide(e.message)
    throw e
  }
}

/**
 * A payment the confirming endpoint did not show as the primary did: recorded as `held` (no credit,
 * no refund) so that an endpoint that invents or alters a payment moves no money and the operator
 * sees what it claimed. The cursor does not move: it only ever stands on a transaction both endpoints
 * showed, so the watcher goes on from there once the primary tells the truth again. Null when that
 * transaction was held before (a liar keeps its story from pass to pass).
 */
export const holdPayment = (ctx: ServerContext, p: InboundPayment, why: string): Promise<PaymentRecord | null> =>
  inTx(ctx, async (ctx) => {
    if (await getRow(ctx.db, 'SELECT 1 AS x FROM chain_payments WHERE tx_hash = ?', p.txHash)) return null
    const m = p.comment ? BOND_PAYMENT_COMMENT.exec(p.comment.trim()) : null
    const r = { mintId: m ? BigInt(m[1]!) : null, outcome: 'held' as const, reason: null, detail: why, overpaidNano: null }
    await insertRecord(ctx, p, r)
    await audit(ctx, 'payment.held', p.txHash, paymentDetail({ ...p, ...r }))
    return { ...p, ...r }
  })

/** The payments held for the operator (the confirming endpoint disagreed), oldest first. */
export const heldPayments = async (ctx: ServerContext): Promise<PaymentRecord[]> =>
  (await allRows(ctx.db, `SELECT * FROM chain_payments WHERE outcome = 'held' ORDER BY lt`)).map(recordOf)

/** A treasury transaction that is no payment to decide (its own sends are confirmed by confirmSent): the cursor moves past it. */
export const passTransaction = (ctx: ServerContext, step: { name: string; from: ChainCursor | null; to: ChainCursor }) =>
  advanceChainCursor(ctx, { name: step.name, expected: step.from, next: step.to })

/** One internal message the treasury's transaction sent: where, how much, which comment. */
export interface SentMessage {
  readonly to: string
  readonly amountNano: bigint
  readonly comment: string | null
}

/**
 * The treasury's own transaction, carrying the external message `msgHash`: with the cursor's move,
 * each outgoing payment of that message is paid if the transaction sent it (a sale's withdrawal
 * becomes completed), else (the wallet skipped it: its balance) queued again, one failure more.
 */
export const confirmSent = (
  ctx: ServerContext,
  msgHash: string,
  txHash: string,
  sent: ReadonlyArray<SentMessage>,
  step: { name: string; from: ChainCursor | null; to: ChainCursor },
  maxFailures: number,
): Promise<OutgoingPayment[]> =>
  inTx(ctx, async (ctx) => {
    await advanceChainCursor(ctx, { name: step.name, expected: step.from, next: step.to })
    const rows = (await allRows(ctx.db, `SELECT * FROM outgoing_payments WHERE msg_hash = ? AND state = 'sending'`, msgHash)).map(outgoingOf)
    const left = [...sent]
    for (const row of rows) {
      const to = rawOf(row.to)
      const i = left.findIndex((m) => rawOf(m.to) === to && m.amountNano === row.amountNano && m.comment === row.comment)
      if (i >= 0) {
        left.splice(i, 1)
        await run(ctx.db, `UPDATE outgoing_payments SET state = 'paid', paid_tx_hash = ?, updated_at = ? WHERE id = ?`, txHash, ctx.now(), row.id)
        await audit(ctx, outgoingEvent(row.kind, 'paid'), row.id, { ...outgoingDetail(row), txHash })
        if (row.withdrawalId !== null) await completeSale(ctx, row.withdrawalId)
      } else await failOne(ctx, row, 'the treasury did not send it (its balance?)', maxFailures)
    }
    // What the treasury sent that no row in flight accounts for: a payment of ours the database does
    // not know was sent (restored to a point before it was), found by its comment, address and amount.
    // Marked paid here, before any pass can sign it again: the chain says it was paid.
    for (const m of left) {
      if (!m.comment || !/^axiom:(sale|refund|sweep):/.test(m.comment)) continue
      const candidates = (await allRows(ctx.db, `SELECT * FROM outgoing_payments WHERE comment = ? AND amount_nano = ? AND state IN ('queued', 'sending', 'failed') ORDER BY id`, m.comment, m.amountNano)).map(outgoingOf)
      let row = candidates.find((r) => rawOf(r.to) === rawOf(m.to))
      const sale = /^axiom:sale:(\d{1,20})$/.exec(m.comment)
      if (!row && sale) {
        // Restored to before the sale joined the queue: it has no row yet; one is made for what was paid.
        const w = await getRow(ctx.db, `SELECT id, address, amount_ton, status FROM withdrawals WHERE id = ?`, BigInt(sale[1]!))
        const known = await getRow(ctx.db, `SELECT 1 AS x FROM outgoing_payments WHERE ref = ?`, `sale:${sale[1]}`)
        if (!known && w && ['pending', 'held', 'sending'].includes(str(w, 'status')) && big(w, 'amount_ton') === m.amountNano && rawOf(str(w, 'address')) === rawOf(m.to)) {
          const id = await enqueue(ctx, 'sale', `sale:${big(w, 'id')}`, str(w, 'address'), m.amountNano, m.comment, big(w, 'id'))
          row = (await outgoingPayment(ctx, BigInt(id)))!
        }
      }
      if (!row) {
        // Paid on the chain, and nothing here says what for: the operator's to look into.
        await audit(ctx, 'payout.unmatched', null, { to: m.to, amountNano: m.amountNano, comment: m.comment, txHash })
        continue
      }
      await run(
        ctx.db,
        `UPDATE outgoing_payments SET state = 'paid', paid_tx_hash = ?, seqno = NULL, valid_until = NULL, msg_hash = NULL, boc = NULL, last_error = ?, updated_at = ? WHERE id = ?`,
        txHash,
        'found paid on the chain (sent before the database was restored)',
        ctx.now(),
        row.id,
      )
      await audit(ctx, outgoingEvent(row.kind, 'paid'), row.id, { ...outgoingDetail(row), txHash, foundOnChain: true })
      if (row.withdrawalId !== null) await completeSaleFoundPaid(ctx, row.withdrawalId)
    }
    return rows
  })

/** One more failure: queued again to be signed anew, or `failed` after `maxFailures`. */
const failOne = async (ctx: ServerContext, row: OutgoingPayment, error: string, maxFailures: number): Promise<void> => {
  const failed = row.failures + 1 >= maxFailures
  const r = await run(
    ctx.db,
    `UPDATE outgoing_payments SET state = ?, failures = failures + 1, last_error = ?, seqno = NULL, valid_until = NULL, msg_hash = NULL, boc = NULL, updated_at = ?
     WHERE id = ? AND state = 'sending'`,
    failed ? 'failed' : 'queued',
    error,
    ctx.now(),
    row.id,
  )
  if (failed && r.changes === 1) await audit(ctx, outgoingEvent(row.kind, 'failed'), row.id, { ...outgoingDetail(row), error, failures: row.failures + 1 })
}

/** A queued payment no message can carry (its address): `failed` at once, for the operator. */
export const failUnpayable = (ctx: ServerContext, id: bigint, error: string): Promise<void> =>
  inTx(ctx, async (ctx) => {
    const row = await outgoingPayment(ctx, id)
    const r = await run(ctx.db, `UPDATE outgoing_payments SET state = 'failed', last_error = ?, updated_at = ? WHERE id = ? AND state = 'queued'`, error, ctx.now(), id)
    if (row && r.changes === 1) await audit(ctx, outgoingEvent(row.kind, 'failed'), id, { ...outgoingDetail(row), error })
  })

/** The message `msgHash` can no longer land (expired with its seqno unused, or the seqno went to another): its payments are signed anew. */
export const abandonMessage = (ctx: ServerContext, msgHash: string, error: string, maxFailures: number): Promise<void> =>
  inTx(ctx, async (ctx) => {
    for (const row of (await allRows(ctx.db, `SELECT * FROM outgoing_payments WHERE msg_hash = ? AND state = 'sending'`, msgHash)).map(outgoingOf)) {
      await failOne(ctx, row, error, maxFailures)
    }
  })

/**
 * Every `pending` sale whose cooling period is over (release_at passed, or none: server/domain/withdraw.ts)
 * joins the queue (its withdrawal becomes `sending`: the API still shows it pending). A sale still
 * cooling stays `pending`, out of the queue, and its user may cancel it; a sale its user cancelled
 * in the meantime is `failed` and is not queued.
 */
export const queueDueSales = (ctx: ServerContext): Promise<number> =>
  inTx(ctx, async (ctx) => {
    // Not cooling: the same rule as server/domain/sale-payouts.ts's RELEASED_SQL.
    const released = '(release_at IS NULL OR release_at <= ?)'
    const due = await allRows(ctx.db, `SELECT id, address, amount_ton FROM withdrawals WHERE status = 'pending' AND ${released} ORDER BY id`, ctx.now())
    let queued = 0
    for (const w of due) {
      const id = big(w, 'id')
      if ((await run(ctx.db, `UPDATE withdrawals SET status = 'sending' WHERE id = ? AND status = 'pending' AND ${released}`, id, ctx.now())).changes !== 1) continue
      await enqueue(ctx, 'sale', `sale:${id}`, str(w, 'address'), big(w, 'amount_ton'), saleComment(id), id)
      queued++
    }
    return queued
  })

/**
 * Claims queued payments for one signed message, recording its seqno, valid_until, hash and BOC
 * before anything is sent. False (nothing written) when any of them is no longer queued.
 */
export const claimForMessage = (
  ctx: ServerContext,
  ids: ReadonlyArray<bigint>,
  m: { seqno: number; validUntil: number; msgHash: string; boc: string },
): Promise<boolean> =>
  inTx(ctx, async (ctx) => {
    for (const id of ids) {
      const r = await run(
        ctx.db,
        `UPDATE outgoing_payments SET state = 'sending', seqno = ?, valid_until = ?, msg_hash = ?, boc = ?, updated_at = ? WHERE id = ? AND state = 'queued'`,
        m.seqno,
        m.validUntil,
        m.msgHash,
        m.boc,
        ctx.now(),
        id,
      )
      if (r.changes !== 1) throw new ClaimLost()
      const row = (await outgoingPayment(ctx, id))!
      await audit(ctx, outgoingEvent(row.kind, 'signed'), id, { ...outgoingDetail(row), seqno: m.seqno, validUntil: m.validUntil, msgHash: m.msgHash })
    }
    return true
  }).catch((e: unknown) => {
    if (e instanceof ClaimLost) return false
    throw e
  })

class ClaimLost extends Error {}

/**
 * Queues a sweep of `amount` to `to` (the cold wallet) unless one is already queued or in flight:
 * in one transaction, so two passes never queue two. The sweep's number is its ref's and its
 * comment's (`axiom:sweep:<n>`). Null when one was there.
 */
export const queueSweep = (ctx: ServerContext, to: string, amount: bigint, commentOf: (n: bigint) => string): Promise<OutgoingPayment | null> =>
  inTx(ctx, async (ctx) => {
    const busy = await getRow(ctx.db, `SELECT id FROM outgoing_payments WHERE kind = 'sweep' AND state IN ('queued', 'sending') LIMIT 1`)
    if (busy) return null
    const n = big((await getRow(ctx.db, `SELECT COUNT(*) AS n FROM outgoing_payments WHERE kind = 'sweep'`))!, 'n') + 1n
    const id = await enqueue(ctx, 'sweep', `sweep:${n}`, to, amount, commentOf(n), null)
    return outgoingPayment(ctx, BigInt(id))
  })

/** Every queued sweep becomes `cancelled` (why in last_error): a sweep is never signed again with an amount reckoned from an older balance. */
export const cancelQueuedSweeps = (ctx: ServerContext, why: string): Promise<number> =>
  inTx(ctx, async (ctx) => {
    const queued = (await allRows(ctx.db, `SELECT * FROM outgoing_payments WHERE kind = 'sweep' AND state = 'queued'`)).map(outgoingOf)
    for (const row of queued) {
      await run(ctx.db, `UPDATE outgoing_payments SET state = 'cancelled', last_error = ?, updated_at = ? WHERE id = ? AND state = 'queued'`, why, ctx.now(), row.id)
      await audit(ctx, 'sweep.cancelled', row.id, { ...outgoingDetail(row), why })
    }
    return queued.length
  })

/** The operator's commands on a `failed` payment: sign it anew, or mark it settled by hand. */
export const retryOutgoing = (ctx: ServerContext, id: bigint): Promise<boolean> =>
  inTx(ctx, async (ctx) => {
    const retried = (await run(ctx.db, `UPDATE outgoing_payments SET state = 'queued', failures = 0, last_error = NULL, updated_at = ? WHERE id = ? AND state = 'failed'`, ctx.now(), id)).changes === 1
    if (retried) await audit(ctx, 'payout.retried', id, outgoingDetail((await outgoingPayment(ctx, id))!))
    return retried
  })

export const settleOutgoing = (ctx: ServerContext, id: bigint, note: string): Promise<boolean> =>
  inTx(ctx, async (ctx) => {
    const row = await outgoingPayment(ctx, id)
    if (!row || row.state !== 'failed') return false
    await run(ctx.db, `UPDATE outgoing_payments SET state = 'paid', last_error = ?, updated_at = ? WHERE id = ?`, `settled by the operator: ${note}`, ctx.now(), id)
    await audit(ctx, 'payout.settled', id, { ...outgoingDetail(row), note })
    if (row.withdrawalId !== null) await completeSale(ctx, row.withdrawalId)
    return true
  })
