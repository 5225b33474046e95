import { Address, beginCell, external, internal, loadMessage, SendMode, storeMessage, type Cell } from '@ton/core'
import { WalletContractV4, type TonClient4 } from '@ton/ton'
import type { Lease } from '../cluster/cluster.ts'
import type { ServerContext } from '../domain/context.ts'
import { readChainCursor, readChainSeen } from '../domain/chain-cursor.ts'
import { inTx } from '../domain/context.ts'
import { formatNano } from '../domain/money.ts'
import { holdOverLimits } from '../domain/sale-payouts.ts'
import type { PayoutLimits } from '../config/config.ts'
import { hourOutflow, isPayoutPauseOn, recordBreaker } from './payout-breaker.ts'
import {
  abandonMessage,
  cancelQueuedSweeps,
  claimForMessage,
  failUnpayable,
  outgoingPayments,
  queueDueSales,
  queueSweep,
  type OutgoingPayment,
} from './payment-rows.ts'
import { sweepAmount, sweepComment, type ColdSweep } from './cold-sweep.ts'
import { MAX_MESSAGES, type TreasuryKey } from './treasury.ts'
import { normalizedMessageHash, TREASURY_CURSOR } from './watcher.ts'
import { COIN } from '../../core/domain/constants.ts'

const parses = (a: string) => {
  try {
    Address.parse(a)
    return true
  } catch {
    return false
  }
}

/** How long a signed message stays valid (its valid_until is the chain's time plus this). */
export const VALID_FOR_S = 60
/** Failures (a message signed anew) after which an outgoing payment is `failed`, for the operator. */
export const DEFAULT_MAX_FAILURES = 5

/** The treasury's signing side: its contract and key. */
export type TreasurySigner = Pick<TreasuryKey, 'version' | 'keyPair' | 'wallet'>

export interface PayoutSenderOptions {
  readonly client: TonClient4
  readonly treasury: TreasurySigner
  /** Only the holder sends (RunningServer.lease('payouts')). */
  readonly lease: Lease
  readonly maxFailures: number
  readonly validForS?: number
  /** The payout limits and breaker; default the server's (ServerConfig.payoutLimits). */
  readonly limits?: PayoutLimits
  /** The hot float and the cold wallet its excess goes to (server/chain/cold-sweep.ts); none by default. */
  readonly sweep?: ColdSweep | null
  readonly log?: (msg: string, e?: unknown) => void
}

export interface PayoutSender {
  /**
   * One pass: due sales join the queue; the message in flight is resent (until its valid_until),
   * or given up when it can no longer land; else the next queued payments are signed into one
   * message (up to 255 for W5, 4 for v4), recorded, then sent; with nothing queued, the treasury's
   * excess over its float goes to the cold wallet (a sweep, o.sweep). Answers the payments it sent or resent.
   */
  pass(): Promise<OutgoingPayment[]>
  /** No pass starts any more; resolves when the one under way (if any) is done. */
  halt(): Promise<void>
}

/** The external message carrying `messages`, signed by the treasury with `seqno`, valid until `validUntil`. */
export const signTransfer = (t: TreasurySigner, seqno: number, validUntil: number, rows: ReadonlyArray<OutgoingPayment>, deploy: boolean): Cell => {
  const messages = rows.map((r) =>
    internal({ to: r.to, value: r.amountNano, bounce: false, body: beginCell().storeUint(0, 32).storeStringTail(r.comment).endCell() }),
  )
  const args = {
    seqno,
    secretKey: t.keyPair.secretKey,
    messages,
    // The treasury pays the forwarding fees; a message it cannot pay is skipped, not the whole transfer.
    sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    timeout: validUntil,
  }
  const body = t.wallet instanceof WalletContractV4 ? t.wallet.createTransfer(args) : t.wallet.createTransfer(args)
  const ext = external({ to: t.wallet.address, init: deploy ? t.wallet.init : undefined, body })
  return beginCell().store(storeMessage(ext)).endCell()
}

/**
 * Pays the outgoing queue from the treasury through TonClient4, never twice: each message's seqno,
 * valid_until and hash are committed before it is sent; the same message is resent until it lands
 * (the watcher marks its payments paid when it sees the treasury's transaction carrying it) or can
 * no longer land (its valid_until passed by the chain's clock with the seqno unused, or the seqno
 * was used and the watcher, caught up past it, did not find it): only then are they signed anew.
 * One message in flight at a time: messages of one seqno exclude each other.
 */
export const createPayoutSender = (ctx: ServerContext, o: PayoutSenderOptions): PayoutSender => {
  const log = o.log ?? ((msg, e) => console.error(`[chain] ${msg}`, e ?? ''))
  const validFor = o.validForS ?? VALID_FOR_S
  const address = o.treasury.wallet.address
  let running: Promise<OutgoingPayment[]> | null = null

  const send = async (boc: string): Promise<void> => {
    try {
      await o.client.sendMessage(Buffer.from(boc, 'base64'))
    } catch (e) {
      // Whether it arrived or not, the same message is resent on the next pass until valid_until.
      log('sending a treasury message failed (resent on the next pass)', e instanceof Error ? e.message : e)
    }
  }

  const ton = (nano: bigint) => `${formatNano(nano)} ${COIN}`
  // What the breaker last said, so that a change is logged and recorded once.
  let said: string | null = null
  const breaker = async (causes: ReadonlyArray<string>) => {
    const text = causes.join('; ')
    if (text === said) return
    said = text
    await recordBreaker(ctx, { causes, at: ctx.now() })
    log(causes.length === 0 ? 'payouts go: the breaker has no cause' : `PAYOUTS PAUSED: ${text}`)
  }

  let halted = false
  const once = async (): Promise<OutgoingPayment[]> => {
    if (halted || !o.lease.held()) return []
    const limits = o.limits ?? ctx.config.payoutLimits
    // In one transaction: a sale over a limit is held before the due ones join the queue.
    await inTx(ctx, async (ctx) => {
      for (const h of await holdOverLimits(ctx, limits)) log(`sale #${h.id} HELD for the operator: ${h.reason}`)
      await queueDueSales(ctx)
    })
    // The chain first, then the cursor, then the rows: a row still `sending` after a cursor past the
    // transaction that used its seqno was not in that transaction.
    const last = await o.client.getLastBlock()
    // The seqno before the account: the account's last transaction is then at least as new as the
    // seqno, so a transaction that used a seqno is among those the cursor is compared with below. (A
    // node answering from its newest state whatever block is asked would otherwise give a seqno newer
    // than the account, and a message that landed would look skipped and be paid again.)
    const seqnoRun = await o.client.runMethod(last.last.seqno, address, 'seqno')
    const account = (await o.client.getAccountLite(last.last.seqno, address)).account
    const active = account.state.type === 'active'
    let seqno = 0
    if (active) {
      // Not deployed when the seqno was asked, deployed since: the next pass reads both again.
      if (seqnoRun.exitCode !== 0 && seqnoRun.exitCode !== 1) throw new Error(`the treasury's seqno get method failed (exit code ${seqnoRun.exitCode})`)
      seqno = seqnoRun.reader.readNumber()
    }
    const chainNow = last.now
    const cursor = await readChainCursor(ctx, TREASURY_CURSOR)
    // Caught up: the cursor is the account's last transaction, by lt AND hash (a cursor of another
    // history, whatever its lt, has seen nothing of this one: a message of it is not judged skipped).
    const caughtUp =
      account.last === null ||
      (cursor !== null && cursor.lt === BigInt(account.last.lt) && cursor.txHash === Buffer.from(account.last.hash, 'base64').toString('hex'))
    // The breaker's causes that stop every payment, the one in flight included.
    const stops: string[] = []
    if (await isPayoutPauseOn(ctx.db)) stops.push('paused by the operator (npm run admin -- payouts resume)')
    if (limits.maxLagS !== null) {
      const seen = await readChainSeen(ctx, TREASURY_CURSOR)
      if (seen === null) stops.push("the watcher has not read the treasury's history yet")
      else if (chainNow - seen > limits.maxLagS) stops.push(`the watcher is ${chainNow - seen} s behind the chain (limit ${limits.maxLagS} s)`)
    }
    const balance = BigInt(account.balance.coins)
    const reserve = limits.treasuryReserveNano
    if (reserve !== null && balance < reserve) stops.push(`the treasury holds ${ton(balance)}, below its reserve of ${ton(reserve)}`)
    const outflow = limits.maxHourNano !== null ? await hourOutflow(ctx) : 0n
    if (limits.maxHourNano !== null && outflow >= limits.maxHourNano) {
      stops.push(`the last hour's outflow of ${ton(outflow)} has reached its limit of ${ton(limits.maxHourNano)}`)
    }

    const sending = await outgoingPayments(ctx, ['sending'])
    const byMessage = new Map<string, OutgoingPayment[]>()
    for (const r of sending) byMessage.set(r.msgHash!, [...(byMessage.get(r.msgHash!) ?? []), r])

    let inFlight: OutgoingPayment[] | null = null
    for (const [hash, rows] of byMessage) {
      const m = rows[0]!
      if (seqno > m.seqno!) {
        if (caughtUp) await abandonMessage(ctx, hash, `seqno ${m.seqno} was used without this message`, o.maxFailures)
        else inFlight = rows // the watcher has yet to see the transaction that used it
      } else if (chainNow > m.validUntil!) {
        await abandonMessage(ctx, hash, `expired (valid until ${m.validUntil}) before it landed`, o.maxFailures)
      } else {
        // Not even resent while the breaker has a cause: it may expire, and is then signed anew once the cause clears.
        if (stops.length === 0) await send(m.boc!)
        inFlight = rows
      }
    }
    if (inFlight) {
      await breaker(stops)
      return stops.length === 0 ? inFlight : []
    }
    // A sweep whose message did not land (expired, skipped) is not signed again with its amount: the
    // balance has moved since. The next one is reckoned from the balance of its own pass.
    const dropped = await cancelQueuedSweeps(ctx, 'its message did not land; the next sweep is reckoned from the balance of its moment')
    if (dropped > 0) log(`a cold sweep that did not land was cancelled (${dropped})`)

    const all = await outgoingPayments(ctx, ['queued'])
    // An address the chain cannot take would stop every message it is in: it goes to the operator.
    for (const r of all.filter((r) => !parses(r.to))) await failUnpayable(ctx, r.id, `unparsable address ${r.to}`)
    // The oldest first, as many as the hour's limit and the reserve let go: the rest wait, in order.
    const queued: OutgoingPayment[] = []
    let total = 0n
    for (const r of stops.length > 0 ? [] : all.filter((r) => parses(r.to)).slice(0, MAX_MESSAGES[o.treasury.version])) {
      if (limits.maxHourNano !== null && outflow + total + r.amountNano > limits.maxHourNano) {
        stops.push(`payment #${r.id} (${ton(r.amountNano)}) would take the last hour's outflow to ${ton(outflow + total + r.amountNano)}, over its limit of ${ton(limits.maxHourNano)}`)
        break
      }
      if (reserve !== null && balance - total - r.amountNano < reserve) {
        stops.push(`payment #${r.id} (${ton(r.amountNano)}) would take the treasury's ${ton(balance - total)} below its reserve of ${ton(reserve)}`)
        break
      }
      queued.push(r)
      total += r.amountNano
    }
    await breaker(stops)
    const signAndSend = async (rows: OutgoingPayment[]): Promise<OutgoingPayment[]> => {
      const validUntil = chainNow + validFor
      const cell = signTransfer(o.treasury, seqno, validUntil, rows, !active)
      const boc = cell.toBoc().toString('base64')
      const msgHash = normalizedMessageHash(loadMessage(cell.beginParse()))
      // Recorded before it is sent: a kill after this line leaves a message the next pass resends.
      if (!(await claimForMessage(ctx, rows.map((r) => r.id), { seqno, validUntil, msgHash, boc }))) return []
      await send(boc)
      return rows
    }
    if (queued.length === 0) {
      if (stops.length > 0) return []
      // A funded treasury not deployed yet is deployed by a transfer of nothing: until it is, a
      // bounceable payment to it bounces. Nothing is paid by it, so nothing is recorded.
      if (!active && BigInt(account.balance.coins) > 0n) await send(signTransfer(o.treasury, 0, chainNow + validFor, [], true).toBoc().toString('base64'))
      // Nothing owed is queued or in flight, and the breaker has no cause: the excess over the float goes cold.
      if (!o.sweep || !active || !caughtUp) return []
      // Never below the reserve, whatever the float says.
      const keep = reserve !== null && reserve > o.sweep.floatNano ? reserve : o.sweep.floatNano
      const amount = sweepAmount(balance, keep)
      if (amount === null) return []
      // The watcher has not moved since the balance was read: no payment of the treasury's was
      // confirmed (and so left the queue) that this balance does not already show gone.
      const again = await readChainCursor(ctx, TREASURY_CURSOR)
      if (again?.lt !== cursor?.lt || again?.txHash !== cursor?.txHash) return []
      const row = await queueSweep(ctx, o.sweep.coldAddress, amount, sweepComment)
      if (!row) return []
      log(`cold sweep #${row.id}: ${ton(amount)} to ${o.sweep.coldAddress} (the treasury holds ${ton(balance)}, keeps ${ton(keep)})`)
      return signAndSend([row])
    }
    return signAndSend(queued)
  }

  return {
    pass: () =>
      (running ??= once()
        .catch((e: unknown) => {
          log('payout pass failed (tried again on the next)', e instanceof Error ? e.message : e)
          return [] as OutgoingPayment[]
        })
        .finally(() => {
          running = null
        })),
    halt: async () => {
      halted = true
      await running
    },
  }
}
