import { Address, beginCell, storeMessage, type Message, type Transaction } from '@ton/core'
import type { TonClient4 } from '@ton/ton'
import type { Lease } from '../cluster/cluster.ts'
import type { ServerContext } from '../domain/context.ts'
import { CursorMoved, readChainCursor, recordChainSeen, TREASURY_CURSOR, type ChainCursor } from '../domain/chain-cursor.ts'
import { confirmSent, decidePayment, DEFAULT_REFUND_RULE, passTransaction, type PaymentRecord, type SentMessage } from './payment-rows.ts'

export { TREASURY_CURSOR }

/**
 * The hash an external message is known by whatever way it was serialised (TON's "normalized"
 * hash): ext_in_msg_info with no source and no import fee, no state init, the body in a reference.
 * The payouts record it before sending; the watcher finds it in the treasury's transaction.
 */
export const normalizedMessageHash = (m: Message): string => {
  if (m.info.type !== 'external-in') throw new Error('only an external inbound message has a normalized hash')
  return beginCell()
    .store(storeMessage({ info: { type: 'external-in', dest: m.info.dest, importFee: 0n }, init: null, body: m.body }, { forceRef: true }))
    .endCell()
    .hash()
    .toString('hex')
}

/** The text of a comment body (op 0), or null. */
export const commentOf = (body: Message['body'] | null | undefined): string | null => {
  if (!body) return null
  try {
    const s = body.beginParse()
    if (s.remainingBits < 32 || s.loadUint(32) !== 0) return null
    return s.loadStringTail()
  } catch {
    return null
  }
}

export interface ChainWatcherOptions {
  readonly client: TonClient4
  readonly treasury: Address
  /** Only the holder handles anything (RunningServer.lease('chain-watcher')). */
  readonly lease: Lease
  readonly cursor?: string
  /**
   * With no cursor stored: true handles the treasury's whole history (a fresh local chain); false
   * (a real network) starts after the treasury's newest transaction, so a new deployment does not
   * refund what was paid to the address before it.
   */
  readonly fromStart: boolean
  /** The least refund sent (default MIN_REFUND_NANO) and the fee kept from each (default REFUND_FEE_NANO). */
  readonly minRefundNano?: bigint
  readonly refundFeeNano?: bigint
  /** How many of its latest decisions the watcher keeps in memory (`decided`); default DECIDED_KEPT. */
  readonly keepDecided?: number
  /** Failures after which an outgoing payment is `failed` (its confirmation may fail it). */
  readonly maxFailures: number
  readonly log?: (msg: string, e?: unknown) => void
}

/** The latest decisions a watcher keeps in memory: the database has every one (`chain_payments`). */
export const DECIDED_KEPT = 1_000

export interface ChainWatcher {
  /** One pass: every treasury transaction after the cursor, oldest first. Passes never overlap; a call during one runs another after it. */
  pass(): Promise<void>
  /**
   * The latest decisions this instance made, oldest first: at most `keepDecided` (the local stack
   * shows them; the database has them all), so a long-running watcher's memory does not grow.
   */
  readonly decided: ReadonlyArray<PaymentRecord>
  /** No pass starts any more; resolves when the one under way (if any) is done. */
  halt(): Promise<void>
}

const hex = (b: Buffer) => b.toString('hex')
const prevHash = (tx: Transaction) => Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex')

/**
 * Watches the treasury through the TON HTTP API v4 (TonClient4), by TON's payment-processing rules
 * (docs/local-stack.md, "The payment watcher's rules"): from the lt+hash cursor it pages back through
 * the treasury's history to the cursor, then handles what is newer, oldest first. Only internal
 * inbound messages with a source are payments; aborted and bounced transactions are passed over; the
 * treasury's own transactions (external inbound) confirm the outgoing payments they carry. Every
 * transaction moves the cursor by compare-and-set in the same database transaction as its decision.
 */
export const createChainWatcher = (ctx: ServerContext, o: ChainWatcherOptions): ChainWatcher => {
  const name = o.cursor ?? TREASURY_CURSOR
  const log = o.log ?? ((msg, e) => console.error(`[chain] ${msg}`, e ?? ''))
  const decided: PaymentRecord[] = []
  const keep = Math.max(0, o.keepDecided ?? DECIDED_KEPT)
  let running: Promise<void> | null = null
  let again = false

  /**
   * The treasury's transactions after `cursor` as of the latest block, oldest first (all of them
   * when `cursor` is null), and that block's chain time.
   */
  const newerThan = async (cursor: ChainCursor | null): Promise<{ txs: Transaction[] | 'none'; at: number }> => {
    const last = await o.client.getLastBlock()
    return { txs: await historyAfter(cursor, last.last.seqno), at: last.now }
  }

  const historyAfter = async (cursor: ChainCursor | null, seqno: number): Promise<Transaction[] | 'none'> => {
    const account = (await o.client.getAccountLite(seqno, o.treasury)).account
    if (!account.last) return []
    if (cursor && BigInt(account.last.lt) <= cursor.lt) return []
    const out: Transaction[] = []
    let lt = BigInt(account.last.lt)
    let hash = Buffer.from(account.last.hash, 'base64')
    for (;;) {
      const page = await o.client.getAccountTransactions(o.treasury, lt, hash)
      if (page.length === 0) break
      for (const { tx } of page) {
        if (cursor && tx.lt <= cursor.lt) {
          if (tx.lt === cursor.lt && hex(tx.hash()) === cursor.txHash) return out.reverse()
          // Not on this chain (a local chain started afresh under a kept database).
          return o.fromStart ? 'none' : (() => {
            throw new Error(`the cursor ${cursor.lt}:${cursor.txHash} is not in the treasury's history`)
          })()
        }
        out.push(tx)
      }
      const oldest = page[page.length - 1]!.tx
      if (oldest.prevTransactionLt === 0n) break
      lt = oldest.prevTransactionLt
      hash = prevHash(oldest)
    }
    return cursor ? (o.fromStart ? 'none' : []) : out.reverse()
  }

  const handle = async (tx: Transaction, from: ChainCursor | null): Promise<ChainCursor> => {
    const to: ChainCursor = { lt: tx.lt, txHash: hex(tx.hash()) }
    const step = { name, from, to }
    const msg = tx.inMessage
    if (msg?.info.type === 'external-in') {
      const sent: SentMessage[] = []
      for (const m of tx.outMessages.values()) {
        if (m.info.type === 'internal') sent.push({ to: m.info.dest.toRawString(), amountNano: m.info.value.coins, comment: commentOf(m.body) })
      }
      await confirmSent(ctx, normalizedMessageHash(msg), to.txHash, sent, step, o.maxFailures)
      return to
    }
    // An aborted transaction of a bounceable message sent the value back (its bounce); a
    // non-bounceable one's value stayed (a payment to a treasury not deployed yet): that is a payment.
    const aborted = tx.description.type === 'generic' && tx.description.aborted && msg?.info.type === 'internal' && msg.info.bounce
    if (!msg || msg.info.type !== 'internal' || msg.info.bounced || aborted) {
      await passTransaction(ctx, step)
      return to
    }
    const r = await decidePayment(
      ctx,
      { txHash: to.txHash, lt: tx.lt, txNow: tx.now, from: msg.info.src.toRawString(), amountNano: msg.info.value.coins, comment: commentOf(msg.body) },
      step,
      { minNano: o.minRefundNano ?? DEFAULT_REFUND_RULE.minNano, feeNano: o.refundFeeNano ?? DEFAULT_REFUND_RULE.feeNano },
    )
    decided.push(r)
    if (decided.length > keep) decided.splice(0, decided.length - keep)
    return to
  }

  let halted = false
  const once = async () => {
    if (halted || !o.lease.held()) return
    let cursor = await readChainCursor(ctx, name)
    if (cursor === null && !o.fromStart) {
      // A new deployment on a real network: what the address received before it is not ours to
      // decide, and its history is not read. The cursor starts at its newest transaction.
      const last = await o.client.getLastBlock()
      const newest = (await o.client.getAccountLite(last.last.seqno, o.treasury)).account.last
      if (newest) await passTransaction(ctx, { name, from: null, to: { lt: BigInt(newest.lt), txHash: hex(Buffer.from(newest.hash, 'base64')) } })
      await recordChainSeen(ctx, name, last.now)
      return
    }
    let seen = await newerThan(cursor)
    if (seen.txs === 'none') {
      log(`the cursor ${name} is not on this chain: its whole history is handled`)
      seen = await newerThan(null)
    }
    for (const tx of seen.txs as Transaction[]) {
      if (halted || !o.lease.held()) return
      cursor = await handle(tx, cursor)
    }
    // Every transaction up to that block is handled: the unpaid bonds' expiry may go as far.
    await recordChainSeen(ctx, name, seen.at)
  }

  const pass = (): Promise<void> => {
    if (running) {
      // The running pass goes round once more: it sees what arrived since.
      again = true
      return running
    }
    running = (async () => {
      do {
        again = false
        try {
          await once()
        } catch (e) {
          // CursorMoved: another watcher moved it; the next pass starts from where it is.
          if (!(e instanceof CursorMoved)) log('watcher pass failed (tried again on the next)', e instanceof Error ? e.message : e)
        }
      } while (again)
    })().finally(() => {
      running = null
    })
    return running
  }

  return {
    pass,
    decided,
    halt: async () => {
      halted = true
      await running
    },
  }
}
