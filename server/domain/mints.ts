import { Address } from '@ton/core'
import { ownNumber, queueNotice } from './outbox.ts'
import type { MintStatus } from '../../core/domain/entities/mint.ts'
import { BondNotPending, NotCancellable, NotFound, TooManyPendingBonds, Underpaid } from './errors.ts'
import { bondPaymentComment } from '../../core/domain/bond-payment.ts'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { allRows, big, getRow, run, str, insertRow, unindexed } from '../db/sql.ts'
import { inTx, type ServerContext } from './context.ts'
import { formatNano, mulNanoUp, percentOf, percentOfUp, PERCENT_SCALE } from './money.ts'
import { moveBalance, recordOperation } from './ledger.ts'
import type { Plan } from './plans.ts'
import { settlePosition } from './positions.ts'
import { maxReward } from './rewards.ts'
import { collectiveBonus } from './settings.ts'
import { queueBalance, queueMint } from './user-events.ts'
import { userRow } from './users.ts'
import type { UserRow } from './rows.ts'
import { type MintRow, positionColumns } from './rows.ts'
import { tierBonusScaled } from './tiers.ts'
import { quotePrice } from './recorded-price.ts'

/** A pending bond's payment must arrive within this window (the wallet transaction's validity). */
export const PAYMENT_VALIDITY_S = 60
/** A bond still unpaid this long after its creation is cancelled: its payment can no longer arrive in time. */
export const UNPAID_BOND_EXPIRY_S = 15 * 60
/** Cancelling an active bond returns its principal less this penalty (10 %); the reward is forfeited. */
export const CANCEL_PENALTY = 10n * PERCENT_SCALE

/** What the chain watcher checks a payment against: the bond's status, the TON due, and the last moment to pay. */
export interface BondPayment {
  readonly status: MintStatus
  readonly amountNano: bigint
  /** Unix seconds: created_at + PAYMENT_VALIDITY_S. */
  readonly payBy: number
}

/** The payment terms of bond `mintId`, or null when there is no such bond. */
export const bondPayment = async (ctx: ServerContext, mintId: bigint): Promise<BondPayment | null> => {
  const row = await getRow(ctx.db, 'SELECT status, amount_ton, created_at FROM mints WHERE id = ?', mintId)
  return row
    ? { status: str(row, 'status') as MintStatus, amountNano: big(row, 'amount_ton'), payBy: Number(big(row, 'created_at')) + PAYMENT_VALIDITY_S }
    : null
}

/** A bond's terms: amounts in nano-units, percents (per day) on the 1e4 scale. */
export interface BondTerms {
  readonly total: bigint
  readonly daily: bigint
  readonly hold: bigint
  readonly collective: bigint
  readonly investment: bigint
  readonly days: number
  readonly amountTon: bigint
  readonly max: bigint
}

/**
 * The terms a user gets today for `amount` over `plan`: their bonuses and the price `priceNano` (TON per
 * AXIOM, nano). A bond paid in TON takes quotePrice's, which refuses an out-of-date recorded price; a
 * farming bond (paid from a link's tokens, no TON moves) the feed's current one.
 */
export const bondTerms = async (
  ctx: ServerContext,
  userId: bigint,
  amount: bigint,
  days: number,
  daily: bigint,
  priceNano: bigint = ctx.price.priceAt(ctx.now()),
): Promise<BondTerms> => {
  const user = await userRow(ctx, userId)
  const hold = big(user, 'hold_bonus')
  const investment = big(user, 'investment_bonus')
  const collective = await collectiveBonus(ctx)
  return {
    total: amount,
    daily,
    hold,
    collective,
    investment,
    days,
    // The TON to pay is rounded up: the treasury never receives less than the bond is worth.
    amountTon: mulNanoUp(amount, priceNano),
    max: maxReward({ total: amount, percentPerDay: daily + hold + collective + investment, days: BigInt(days) }),
  }
}

/**
 * `GET /mint/calculate` and `GET /farming/calculate`: the terms of a bond created now, with the
 * user's bonuses; max_reward = amount × (daily_reward + the three bonuses) % × days. `priceNano`: the
 * price its TON is quoted at (`GET /mint/calculate` passes quotePrice's).
 */
export const quoteBond = (ctx: ServerContext, userId: bigint, amount: bigint, plan: Plan, priceNano?: bigint): Promise<BondTerms> =>
  bondTerms(ctx, userId, amount, plan.days, plan.dailyReward, priceNano)

/** `GET /mint/calculate`: quoteBond at quotePrice's price (an out-of-date recorded price is refused with 409). */
export const quoteTonBond = async (ctx: ServerContext, userId: bigint, amount: bigint, plan: Plan): Promise<BondTerms> =>
  quoteBond(ctx, userId, amount, plan, await quotePrice(ctx))

/**
 * SQL: the next number of a user's bonds or stakes (the one parameter is the user's id), written in
 * the row's insert (user_seq; unique per user, so two inserts that raced would not share it).
 */
export const NEXT_USER_SEQ = (table: 'mints' | 'stakes'): string => `(SELECT COALESCE(MAX(user_seq), 0) + 1 FROM ${table} WHERE user_id = ?)`

/** Inserts a bond, numbered among its owner's; an active one starts its term now. */
export const insertMint = async (
  ctx: ServerContext,
  userId: bigint,
  t: BondTerms,
  status: 'pending' | 'active',
  source: 'ton' | 'farming',
  linkId: bigint | null,
): Promise<bigint> => {
  const now = ctx.now()
  const active = status === 'active'
  const id = await insertRow(
    ctx.db,
    `INSERT INTO mints (user_id, status, source, link_id, created_at, activated_at, ends_at, last_updated_at,
       total_amount, daily_reward, hold_bonus, collective_bonus, investment_bonus, max_reward, amount_ton, tariff_days, user_seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${NEXT_USER_SEQ('mints')})`,
    userId,
    status,
    source,
    linkId,
    now,
    active ? now : null,
    active ? now + t.days * 86_400 : null,
    active ? now : null,
    t.total,
    t.daily,
    t.hold,
    t.collective,
    t.investment,
    t.max,
    t.amountTon,
    t.days,
    userId,
  )
  queueMint(ctx, userId, id)
  return id
}

export const mintRowOf = async (ctx: ServerContext, userId: bigint, mintId: bigint): Promise<MintRow> => {
  const row = await getRow<MintRow>(ctx.db, 'SELECT * FROM mints WHERE id = ? AND user_id = ?', mintId, userId)
  if (!row) throw new NotFound('Bond')
  return row
}

const mintById = async (ctx: ServerContext, mintId: bigint): Promise<MintRow> =>
  (await getRow<MintRow>(ctx.db, `SELECT ${positionColumns('mints')} FROM mints WHERE id = ?`, mintId))!

/** A new pending bond and the TON payment that activates it: to `address`, with `comment`, by `validUntil` (unix s). */
export interface CreatedMint {
  readonly mint: MintRow
  readonly payment: { readonly address: string; readonly amountNano: bigint; readonly comment: string; readonly validUntil: number }
}

/**
 * `POST /mint/create`: a pending bond and the TON payment that activates it, at quotePrice's price
 * (refused, nothing created, while the recorded price is out of date). A user has at most
 * `maxPendingMints` bonds waiting for their payment (counted in the same transaction as the insert):
 * an unpaid bond costs nothing, so without a cap a script could fill the table with them.
 */
export const createMint = (ctx: ServerContext, userId: bigint, amount: bigint, plan: Plan): Promise<CreatedMint> =>
  inTx(ctx, async (ctx) => {
    const waiting = await getRow(ctx.db, `SELECT COUNT(*) AS n FROM mints WHERE user_id = ? AND status = 'pending'`, userId)
    if (big(waiting!, 'n') >= BigInt(ctx.config.maxPendingMints)) throw new TooManyPendingBonds(ctx.config.maxPendingMints)
    // The TON due is computed in the transaction, at a price checked fresh in it: never at an out-of-date one.
    const t = await bondTerms(ctx, userId, amount, plan.days, plan.dailyReward, await quotePrice(ctx))
    const id = await insertMint(ctx, userId, t, 'pending', 'ton', null)
    return {
      mint: await mintById(ctx, id),
      payment: {
        address: ctx.config.treasuryAddress,
        amountNano: t.amountTon,
        comment: bondPaymentComment(id),
        validUntil: ctx.now() + PAYMENT_VALIDITY_S,
      },
    }
  })

/** An address in raw form (`0:<hex>`), or null when it does not parse. */
const rawAddress = (address: string): string | null => {
  try {
    return Address.parse(address).toRawString()
  } catch {
    return null
  }
}

/**
 * Whether raw address `raw` is a wallet of user `userId`'s: the one they proved with tonProof, or one
 * that paid a bond of their own (the chain watcher's record of its payments).
 */
const isWalletOf = async (ctx: ServerContext, userId: bigint, bound: string | null, raw: string): Promise<boolean> => {
  if (bound !== null && rawAddress(bound) === raw) return true
  const paid = await getRow(
    ctx.db,
    `SELECT 1 AS x FROM chain_payments p JOIN mints m ON m.id = p.mint_id
     WHERE p.source = ? AND p.outcome = 'activated' AND m.user_id = ? LIMIT 1`,
    raw,
    userId,
  )
  return paid !== undefined
}

/**
 * Whether a referred user's bond, paid from `payer`, earns the referrer their bonus: not when the
 * referrer paid it themself — the paying wallet is the referrer's (proven, or one that paid the
 * referrer's own bonds), or the buyer's proven wallet is. A payment whose source is unknown (`admin
 * mark-paid`) earns it.
 */
const earnsReferral = async (ctx: ServerContext, referrer: UserRow, buyer: UserRow, payer: string | null): Promise<boolean> => {
  const referrerId = big(referrer, 'id')
  const payerRaw = payer === null ? null : rawAddress(payer)
  if (payerRaw !== null && (await isWalletOf(ctx, referrerId, referrer.wallet_address, payerRaw))) return false
  const buyerRaw = buyer.wallet_address === null ? null : rawAddress(buyer.wallet_address)
  if (buyerRaw !== null && (await isWalletOf(ctx, referrerId, referrer.wallet_address, buyerRaw))) return false
  return true
}

/**
 * A bond's TON payment arrived (the chain watcher or `admin mark-paid`): the bond becomes active
 * from now, and the buyer's referrer earns its tier's bonus of the amount and the turnover — unless
 * the bond was paid from the referrer's own wallet (`payer`, the payment's source address; see
 * earnsReferral): a self-referral earns neither bonus nor turnover. `paidNano` below the quoted
 * amount_ton is refused.
 */
export const markMintPaid = (ctx: ServerContext, mintId: bigint, paidNano?: bigint, payer: string | null = null): Promise<MintRow> =>
  inTx(ctx, async (ctx) => {
    const row = await getRow<MintRow>(ctx.db, 'SELECT * FROM mints WHERE id = ?', mintId)
    if (!row) throw new NotFound('Bond')
    if (str(row, 'status') !== 'pending') throw new BondNotPending(mintId, str(row, 'status'))
    const expected = big(row, 'amount_ton')
    const paid = paidNano ?? expected
    if (paid < expected) throw new Underpaid(formatNano(paid), formatNano(expected))
    const now = ctx.now()
    await run(
      ctx.db,
      `UPDATE mints SET status = 'active', activated_at = ?, ends_at = ? + tariff_days * 86400, last_updated_at = ?, paid_nano = ? WHERE id = ?`,
      now,
      now,
      now,
      paid,
      mintId,
    )
    const userId = big(row, 'user_id')
    const amount = big(row, 'total_amount')
    // The TON the bond cost left the buyer's wallet: their history shows it, though no balance moved.
    await recordOperation(ctx, userId, 'bond_paid', 'wallet', 'ton', -paid, `Bond #${mintId} bought`)
    const buyer = await userRow(ctx, userId)
    if (buyer.referrer_id !== null) {
      const referrerId = big(buyer, 'referrer_id')
      const referrer = await userRow(ctx, referrerId)
      if (await earnsReferral(ctx, referrer, buyer, payer)) {
        const reward = percentOf(amount, tierBonusScaled(big(referrer, 'turnover')))
        await run(ctx.db, 'UPDATE users SET turnover = turnover + ? WHERE id = ?', amount, referrerId)
        await moveBalance(ctx, referrerId, 'referral_balance', reward, 'referral_reward', `Referral bonus for bond #${mintId}`)
        queueBalance(ctx, referrerId)
      }
    }
    queueMint(ctx, userId, mintId)
    await queueNotice(ctx, userId, 'bond_paid', { mint_id: Number(mintId), number: await ownNumber(ctx, 'mints', mintId), amount: formatNano(amount) })
    return await mintById(ctx, mintId)
  })

/**
 * `POST /mint/{id}/cancel`: a pending bond is simply cancelled (nothing was paid); an active bond
 * returns its principal less the 10 % penalty to balance_token and forfeits its reward. Staked,
 * completed or cancelled bonds cannot be cancelled.
 */
export const cancelMint = (ctx: ServerContext, userId: bigint, mintId: bigint): Promise<MintRow> =>
  inTx(ctx, async (ctx) => {
    // Brought up to date first: a bond whose term has ended completes, and is not cancelled with a penalty.
    await settlePosition(ctx, 'mints', await mintRowOf(ctx, userId, mintId), ctx.now())
    const row = await mintRowOf(ctx, userId, mintId)
    const status = str(row, 'status')
    if (status === 'pending') {
      await run(ctx.db, `UPDATE mints SET status = 'canceled', last_updated_at = ? WHERE id = ?`, ctx.now(), mintId)
    } else if (status === 'active') {
      const total = big(row, 'total_amount')
      const penalty = percentOfUp(total, CANCEL_PENALTY)
      await run(ctx.db, `UPDATE mints SET status = 'canceled', penalty = ?, last_updated_at = ? WHERE id = ?`, penalty, ctx.now(), mintId)
      // The penalty takes the locked part first, as any spending does; the rest comes back locked.
      const locked = big(row, 'locked_nano') > penalty ? big(row, 'locked_nano') - penalty : 0n
      await moveBalance(ctx, userId, 'balance_token', total - penalty, 'bond_cancel', `Bond #${mintId} cancelled, 10% penalty kept`, locked)
    } else {
      throw new NotCancellable('bond', status)
    }
    queueMint(ctx, userId, mintId)
    return await mintById(ctx, mintId)
  })

/** Unpaid bonds one transaction of the expiry cancels at most. */
export const EXPIRY_BATCH = 200

/**
 * Cancels the bonds whose payment never came: pending for longer than UNPAID_BOND_EXPIRY_S and, when
 * `chainSeenUntil` is given (the chain time up to which the watcher has handled the treasury's
 * transactions), whose payment window (PAYMENT_VALIDITY_S) ended before it. Their owners' sockets
 * hear of it; a payment arriving later is refunded by the chain watcher.
 */
export const expireUnpaidBonds = async (
  ctx: ServerContext,
  chainSeenUntil?: number,
  o: { readonly signal?: AbortSignal; readonly batch?: number } = {},
): Promise<number> => {
  const batch = o.batch ?? EXPIRY_BATCH
  let expired = 0
  let after = 0n
  // In batches on the id, one short transaction each with the event loop free between them: a day of
  // abandoned checkouts cancelled at once held a SQLite server for seconds.
  for (;;) {
    if (o.signal?.aborted) return expired
    const { rows, cancelled } = await inTx(ctx, async (ctx) => {
      const byClock = ctx.now() - UNPAID_BOND_EXPIRY_S
      const cutoff = chainSeenUntil === undefined ? byClock : Math.min(byClock, chainSeenUntil - PAYMENT_VALIDITY_S)
      const rows = await allRows(
        ctx.db,
        `SELECT id, user_id FROM mints WHERE status = 'pending' AND created_at < ? AND id > ? ORDER BY id LIMIT ?`,
        cutoff,
        after,
        batch,
      )
      if (rows.length === 0) return { rows, cancelled: 0 }
      const cancelled = await allRows(
        ctx.db,
        `UPDATE mints SET status = 'canceled', last_updated_at = ? WHERE id IN (${rows.map(() => '?').join(', ')}) AND ${unindexed(ctx.db, 'status')} = 'pending' RETURNING id, user_id`,
        ctx.now(),
        ...rows.map((r) => big(r, 'id')),
      )
      for (const row of cancelled) queueMint(ctx, big(row, 'user_id'), big(row, 'id'))
      return { rows, cancelled: cancelled.length }
    })
    expired += cancelled
    if (rows.length < batch) return expired
    after = big(rows[rows.length - 1]!, 'id')
    await yieldToLoop()
  }
}
