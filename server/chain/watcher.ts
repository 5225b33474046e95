import { Address, beginCell, storeMessage, type Message, type Transaction } from '@ton/core'
import type { TonClient4 } from '@ton/ton'
import type { Lease } from '../cluster/cluster.ts'
import type { ServerContext } from '../domain/context.ts'
import { CursorMoved, readChainCursor, recordChainSeen, resetChainCursor, TREASURY_CURSOR, type ChainCursor } from '../domain/chain-cursor.ts'
import { confirmSent, decidePayment, DEFAULT_REFUND_RULE, holdPayment, passTransaction, type InboundPayment, type PaymentRecord, type SentMessage } from './payment-rows.ts'

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
  /**
   * A second, independent v4 endpoint (AXIOM_TON_API_CONFIRM): every transaction the watcher acts on
   * must be in its history of the treasury too, the same one (hash, lt, source, value, comment), or
   * the payment is held (never credited nor refunded). None: the primary's word is taken (tests, a
   * local stack without one).
   */
  readonly confirm?: ConfirmClient
  /** How long past a transaction's time the confirming endpoint may still lack it (s); default CONFIRM_GRACE_S. */
  readonly confirmGraceS?: number
  readonly treasury: Address
  /** Only the holder handles anything (RunningServer.lease('chain-watcher')). */
  readonly lease: Lease
  readonly cursor?: string
  /**
   * With no cursor stored: true handles the treasury's whole history (a fresh local chain); false
   * (a real network) starts after the treasury's newest transaction, so a new deployment does not
   * refund what was paid to the address before it. With a cursor the treasury's history does not
   * hold (ForeignHistory): true (the local chain, started anew under a kept database) drops the
   * cursor and handles the new chain's whole history; false holds (`holding`) and credits nothing.
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

/**
 * How far (s) the confirming endpoint's chain may be past a transaction's time without having it
 * before the transaction is held (30 s: blocks come every second or faster, and an endpoint's view
 * lags its chain by a few). Within it, the watcher waits for the confirming endpoint to catch up.
 */
export const CONFIRM_GRACE_S = 30

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
  /**
   * Why this watcher credits nothing now, or null: the endpoint shows a treasury history its cursor
   * is not in (ForeignHistory; a live deployment only). Every pass looks again.
   */
  readonly holding: string | null
  /** How many transactions this watcher held because the confirming endpoint did not show them the same. */
  readonly held: number
  /** No pass starts any more; resolves when the one under way (if any) is done. */
  halt(): Promise<void>
}

/** How often a watcher that holds says so again while the hold lasts (it says so at once). */
export const HOLD_LOG_EVERY_MS = 60_000

/**
 * The treasury's history, as the v4 endpoint shows it, does not hold the watcher's cursor: the
 * endpoint serves another network (or another local chain), or lies. A live watcher credits nothing
 * from it and moves nothing: crediting from a history nobody checked is what an attacker wants.
 */
export class ForeignHistory extends Error {
  readonly _tag = 'ForeignHistory'
  constructor(
    readonly cursor: string,
    readonly at: ChainCursor,
    readonly why: string,
  ) {
    super(
      `the treasury's history at the v4 endpoint does not hold the cursor ${cursor} (${at.lt}:${at.txHash}): ${why}. ` +
        'Nothing is credited or refunded until it does: check AXIOM_TON_API (network, node), or, if the treasury really is on a new chain, ' +
        'delete the cursor (docs/local-stack.md, "The payment watcher\'s rules")',
    )
  }
}

/** The endpoint's answer about the treasury's history contradicts itself (a page that does not link up): nothing is decided from it. */
export class BrokenHistory extends Error {
  readonly _tag = 'BrokenHistory'
}

/** Why a treasury's history is not the one a cursor was taken on. */
export interface Foreign {
  readonly why: string
}

const hex = (b: Buffer) => b.toString('hex')
const prevHash = (tx: Transaction) => Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex')

/** The calls a confirming endpoint is asked (a TonClient4 on AXIOM_TON_API_CONFIRM). */
export type ConfirmClient = Pick<TonClient4, 'getLastBlock' | 'getAccountLite' | 'getAccountTransactions'>

/**
 * The cursor of a live watcher that started on a treasury with no transaction at all: every
 * transaction the treasury will have is after it (its whole history is read, as with no cursor).
 */
export const BEFORE_FIRST_TX: ChainCursor = { lt: 0n, txHash: '0'.repeat(64) }

/** A TonClient4's calls the history is read with (a real TonClient4, or a test's client on a fake endpoint). */
export type HistoryClient = Pick<TonClient4, 'getAccountLite' | 'getAccountTransactions'>

/**
 * The account's transactions after `cursor` as of block `seqno`, oldest first (all of them when
 * `cursor` is null), or why its history is not the one the cursor was taken on.
 *
 * A transaction is known by its logical time AND its hash, everywhere: the account's last one is the
 * cursor only if both match; each transaction a page answers must be the one asked for or the one
 * its successor names as previous (lt and hash), or the answer is refused (BrokenHistory). Paging
 * back from the account's last transaction, the logical times fall strictly: the first one at or
 * below the cursor's lt is the cursor's transaction, or the cursor is not in this history (Foreign:
 * another network, another local chain, a lying endpoint), and neither is a history that ends before
 * reaching it.
 */
export const treasuryHistoryAfter = async (
  client: HistoryClient,
  account: Address,
  from: ChainCursor | null,
  seqno: number,
): Promise<Transaction[] | Foreign> => {
  const cursor = from && from.lt === BEFORE_FIRST_TX.lt && from.txHash === BEFORE_FIRST_TX.txHash ? null : from
  const lite = (await client.getAccountLite(seqno, account)).account
  const at = cursor ? `${cursor.lt}:${cursor.txHash}` : ''
  if (!lite.last) return cursor ? { why: `the account has no transaction at all, the cursor is at ${at}` } : []
  let want = { lt: BigInt(lite.last.lt), hash: Buffer.from(lite.last.hash, 'base64') }
  if (cursor && want.lt === cursor.lt && hex(want.hash) === cursor.txHash) return []
  const out: Transaction[] = []
  for (;;) {
    const page = await client.getAccountTransactions(account, want.lt, want.hash)
    if (page.length === 0) throw new BrokenHistory(`the endpoint answered no transaction ${want.lt}:${hex(want.hash)}, which it named`)
    for (const { tx } of page) {
      if (tx.lt !== want.lt || !tx.hash().equals(want.hash)) {
        throw new BrokenHistory(`the endpoint answered the transaction ${tx.lt}:${hex(tx.hash())} for ${want.lt}:${hex(want.hash)}`)
      }
      if (cursor && tx.lt <= cursor.lt) {
        if (tx.lt === cursor.lt && hex(tx.hash()) === cursor.txHash) return out.reverse()
        return { why: `its transaction at or before the cursor's logical time is ${tx.lt}:${hex(tx.hash())}, the cursor is at ${at}` }
      }
      out.push(tx)
      if (tx.prevTransactionLt === 0n) {
        return cursor ? { why: `its history begins at ${tx.lt}:${hex(tx.hash())}, after the cursor at ${at}` } : out.reverse()
      }
      want = { lt: tx.prevTransactionLt, hash: prevHash(tx) }
    }
  }
}

/** The confirming endpoint's history does not hold the cursor: nothing is credited until the two agree again. */
export class ConfirmDisagrees extends Error {
  readonly _tag = 'ConfirmDisagrees'
  constructor(why: string) {
    super(`${why}: nothing is credited or refunded until AXIOM_TON_API and AXIOM_TON_API_CONFIRM agree (check both endpoints' network and node)`)
  }
}

/** An internal inbound payment into the treasury (with a source, not bounced, not aborted with its value sent back), or null. */
export const inboundOf = (tx: Transaction): InboundPayment | null => {
  const msg = tx.inMessage
  // An aborted transaction of a bounceable message sent the value back (its bounce); a
  // non-bounceable one's value stayed (a payment to a treasury not deployed yet): that is a payment.
  const aborted = tx.description.type === 'generic' && tx.description.aborted && msg?.info.type === 'internal' && msg.info.bounce
  if (!msg || msg.info.type !== 'internal' || msg.info.bounced || aborted) return null
  return { txHash: hex(tx.hash()), lt: tx.lt, txNow: tx.now, from: msg.info.src.toRawString(), amountNano: msg.info.value.coins, comment: commentOf(msg.body) }
}

/** Which of hash, lt, source, value and comment two endpoints' answers for one transaction differ in, or null. */
const differingField = (a: Transaction, b: Transaction): string | null => {
  if (!a.hash().equals(b.hash())) return 'hash'
  if (a.lt !== b.lt) return 'lt'
  const pa = inboundOf(a)
  const pb = inboundOf(b)
  if ((pa === null) !== (pb === null)) return 'kind'
  if (pa && pb) {
    if (pa.from !== pb.from) return 'source'
    if (pa.amountNano !== pb.amountNano) return 'value'
    if (pa.comment !== pb.comment) return 'comment'
  }
  return null
}

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
   * when `cursor` is null), or why its history is not the one the cursor was taken on; and that
   * block's chain time.
   */
  const newerThan = async (cursor: ChainCursor | null): Promise<{ txs: Transaction[] | Foreign; at: number }> => {
    const last = await o.client.getLastBlock()
    return { txs: await treasuryHistoryAfter(o.client, o.treasury, cursor, last.last.seqno), at: last.now }
  }

  const handle = async (tx: Transaction, from: ChainCursor | null, held: string | null): Promise<ChainCursor | null> => {
    const to: ChainCursor = { lt: tx.lt, txHash: hex(tx.hash()) }
    const step = { name, from, to }
    if (held !== null) {
      // Neither decided nor passed: the cursor stays on the last transaction both endpoints showed.
      const p = inboundOf(tx)
      if (!p) {
        // Not a payment (the treasury's own send, a bounce): nothing is confirmed from it either.
        if (!heldSaid.has(to.txHash)) log(`HELD: transaction ${to.lt}:${to.txHash} is not confirmed (${held}); nothing confirmed from it`)
        if (heldSaid.size >= keep) heldSaid.clear()
        heldSaid.add(to.txHash)
        return from
      }
      const r = await holdPayment(ctx, p, held)
      if (r) {
        heldCount++
        log(`HELD: payment ${to.lt}:${to.txHash} of ${p.amountNano} nanoton from ${p.from} is not confirmed (${held}): neither credited nor refunded`)
        remember(r)
      }
      return from
    }
    const msg = tx.inMessage
    if (msg?.info.type === 'external-in') {
      const sent: SentMessage[] = []
      for (const m of tx.outMessages.values()) {
        if (m.info.type === 'internal') sent.push({ to: m.info.dest.toRawString(), amountNano: m.info.value.coins, comment: commentOf(m.body) })
      }
      await confirmSent(ctx, normalizedMessageHash(msg), to.txHash, sent, step, o.maxFailures)
      return to
    }
    const payment = inboundOf(tx)
    if (!payment) {
      await passTransaction(ctx, step)
      return to
    }
    const r = await decidePayment(ctx, payment, step, {
      minNano: o.minRefundNano ?? DEFAULT_REFUND_RULE.minNano,
      feeNano: o.refundFeeNano ?? DEFAULT_REFUND_RULE.feeNano,
    })
    remember(r)
    return to
  }

  const remember = (r: PaymentRecord) => {
    decided.push(r)
    if (decided.length > keep) decided.splice(0, decided.length - keep)
  }

  /**
   * How the confirming endpoint judges each of the primary's transactions after `cursor`: null (the
   * same transaction is in its history), 'wait' (its history does not reach that far yet: the pass
   * stops there and goes on later), or why it is held (its history passes that logical time without
   * it, or has it otherwise). Without a confirming endpoint every one is confirmed.
   */
  const confirmation = async (cursor: ChainCursor | null, txs: ReadonlyArray<Transaction>): Promise<(tx: Transaction) => string | 'wait' | null> => {
    const confirm = o.confirm
    if (!confirm || txs.length === 0) return () => null
    const last = await confirm.getLastBlock()
    const theirs = await treasuryHistoryAfter(confirm, o.treasury, cursor, last.last.seqno)
    // Its history does not hold the cursor the primary's does: the two disagree about the past.
    if (!Array.isArray(theirs)) throw new ConfirmDisagrees(`the confirming endpoint's history of the treasury ${theirs.why}`)
    const byHash = new Map(theirs.map((t) => [hex(t.hash()), t]))
    const reach = theirs.length > 0 ? theirs[theirs.length - 1]!.lt : (cursor?.lt ?? -1n)
    const grace = o.confirmGraceS ?? CONFIRM_GRACE_S
    return (tx) => {
      const same = byHash.get(hex(tx.hash()))
      if (same) {
        const differs = differingField(tx, same)
        return differs ? `the confirming endpoint's transaction differs in its ${differs}` : null
      }
      if (tx.lt <= reach) return `the confirming endpoint's history of the treasury passes logical time ${tx.lt} without this transaction`
      // A transaction the confirming endpoint has not seen, though its chain is well past the
      // transaction's time: invented. One it may simply not have reached yet waits.
      if (tx.now + grace < last.now) return `the confirming endpoint's chain is at ${last.now}, ${last.now - tx.now} s past this transaction's time, without it`
      return 'wait'
    }
  }

  /** Why the watcher holds (ForeignHistory's message), or null; said at once, then every HOLD_LOG_EVERY_MS while it lasts. */
  let holding: string | null = null
  let holdSaid = 0
  let heldCount = 0
  /** Transactions other than payments already said to be held (a liar repeats them every pass). */
  const heldSaid = new Set<string>()
  const hold = (e: ForeignHistory | ConfirmDisagrees) => {
    const now = Date.now()
    if (e.message !== holding || now - holdSaid >= HOLD_LOG_EVERY_MS) {
      log(`HELD: ${e.message}`)
      holdSaid = now
    }
    holding = e.message
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
      // A treasury with no transaction yet: everything it will receive is new (BEFORE_FIRST_TX).
      await passTransaction(ctx, { name, from: null, to: newest ? { lt: BigInt(newest.lt), txHash: hex(Buffer.from(newest.hash, 'base64')) } : BEFORE_FIRST_TX })
      await recordChainSeen(ctx, name, last.now)
      return
    }
    let seen = await newerThan(cursor)
    if (!Array.isArray(seen.txs)) {
      const foreign = seen.txs
      // A live deployment credits nothing from a history its cursor is not in (an endpoint moved to
      // another network, or one that lies): it holds, and says so, until the endpoint shows the
      // history again or an operator resets the cursor.
      if (!o.fromStart) throw new ForeignHistory(name, cursor!, foreign.why)
      // The local chain started anew under a kept database: the watcher starts afresh on it.
      log(`the cursor ${name} at ${cursor!.lt}:${cursor!.txHash} is not in this chain's history (${foreign.why}): a new local chain, its whole history is handled`)
      await resetChainCursor(ctx, name, cursor!)
      cursor = null
      seen = await newerThan(null)
      if (!Array.isArray(seen.txs)) return
    }
    if (holding !== null) {
      log(`the treasury's history holds the cursor ${name} again: payments are credited again`)
      holding = null
    }
    const judge = await confirmation(cursor, seen.txs)
    for (const tx of seen.txs) {
      if (halted || !o.lease.held()) return
      const verdict = judge(tx)
      // The confirming endpoint is behind: what it has not seen yet waits for the next pass.
      if (verdict === 'wait') return
      cursor = await handle(tx, cursor, verdict)
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
          if (e instanceof ForeignHistory || e instanceof ConfirmDisagrees) hold(e)
          else if (!(e instanceof CursorMoved)) log('watcher pass failed (tried again on the next)', e instanceof Error ? e.message : e)
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
    get holding() {
      return holding
    },
    get held() {
      return heldCount
    },
    halt: async () => {
      halted = true
      await running
    },
  }
}
