import { big, getRow, run, str, insertRow } from '../db/sql.ts'
import { NotStakeable } from './errors.ts'
import { inTx, type ServerContext } from './context.ts'
import { moveBalance, recordOperation } from './ledger.ts'
import { mintRowOf, NEXT_USER_SEQ, type BondTerms } from './mints.ts'
import { settlePosition, termsOf } from './positions.ts'
import { STAKING_EXTRA_DAILY } from './plans.ts'
import { maxReward } from './rewards.ts'
import { queueMint, queueStake } from './user-events.ts'
import type { MintRow, StakeRow } from './rows.ts'

/** A stakeable bond: the user's, active, settled up to now. */
const activeMint = async (ctx: ServerContext, userId: bigint, mintId: bigint): Promise<MintRow> => {
  await settlePosition(ctx, 'mints', await mintRowOf(ctx, userId, mintId), ctx.now())
  const row = await mintRowOf(ctx, userId, mintId)
  if (str(row, 'status') !== 'active') throw new NotStakeable(str(row, 'status'))
  return row
}

const stakeTerms = (mint: MintRow) => {
  const terms = termsOf(mint)
  const daily = big(mint, 'daily_reward') + STAKING_EXTRA_DAILY
  return { daily, max: maxReward({ ...terms, percentPerDay: terms.percentPerDay + STAKING_EXTRA_DAILY }) }
}

/** The terms a stake of bond `mintId` would start with now (a stake pays no TON). */
export type StakeQuote = Omit<BondTerms, 'amountTon'> & { readonly mintId: bigint }

/**
 * `GET /staking/calculate?staking_id=<mint id>`: the terms `POST /staking/create` gives for this bond
 * now — the same daily_reward, bonuses and max_reward as the stake it creates.
 */
export const quoteStake = (ctx: ServerContext, userId: bigint, mintId: bigint): Promise<StakeQuote> =>
  inTx(ctx, async (ctx) => {
    const mint = await activeMint(ctx, userId, mintId)
    const t = stakeTerms(mint)
    return {
      mintId,
      total: mint.total_amount,
      daily: t.daily,
      hold: mint.hold_bonus,
      collective: mint.collective_bonus,
      investment: mint.investment_bonus,
      max: t.max,
      days: Number(mint.tariff_days),
    }
  })

/**
 * `POST /staking/create`: the bond's reward so far is paid to balance_token, the bond moves to
 * staking, and a stake of the same principal starts a fresh term with the staking extra.
 */
export const createStake = (ctx: ServerContext, userId: bigint, mintId: bigint): Promise<StakeRow> =>
  inTx(ctx, async (ctx) => {
    const mint = await activeMint(ctx, userId, mintId)
    const now = ctx.now()
    const t = stakeTerms(mint)
    await run(ctx.db, `UPDATE mints SET status = 'move_to_staking', last_updated_at = ? WHERE id = ?`, now, mintId)
    await moveBalance(ctx, userId, 'balance_token', big(mint, 'earned_reward'), 'bond_reward', `Bond #${mintId} reward on staking`)
    const stakeId = await insertRow(
      ctx.db,
      `INSERT INTO stakes (user_id, mint_id, status, created_at, activated_at, ends_at, last_updated_at, total_amount,
         daily_reward, hold_bonus, collective_bonus, investment_bonus, max_reward, amount_ton, tariff_days, user_seq)
       VALUES (?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${NEXT_USER_SEQ('stakes')})`,
      userId,
      mintId,
      now,
      now,
      now + Number(big(mint, 'tariff_days')) * 86_400,
      now,
      big(mint, 'total_amount'),
      t.daily,
      big(mint, 'hold_bonus'),
      big(mint, 'collective_bonus'),
      big(mint, 'investment_bonus'),
      t.max,
      big(mint, 'amount_ton'),
      big(mint, 'tariff_days'),
      userId,
    )
    await recordOperation(ctx, userId, 'stake', 'none', 'token', big(mint, 'total_amount'), `Bond #${mintId} staked as stake #${stakeId}`)
    if (big(mint, 'locked_nano') > 0n) await run(ctx.db, 'UPDATE stakes SET locked_nano = ? WHERE id = ?', big(mint, 'locked_nano'), stakeId)
    queueMint(ctx, userId, mintId)
    queueStake(ctx, userId, stakeId)
    return (await getRow<StakeRow>(ctx.db, 'SELECT * FROM stakes WHERE id = ?', stakeId))!
  })
