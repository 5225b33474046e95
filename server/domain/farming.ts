import { queueNotice } from './outbox.ts'
import { randomBytes } from 'node:crypto'
import { InsufficientBalance, InvalidInput, NotCancellable, NotFound, NotYourLink } from './errors.ts'
import { big, bool, getRow, num, run, str, insertRow } from '../db/sql.ts'
import { inTx, type ServerContext } from './context.ts'
import { formatNano } from './money.ts'
import { moveBalance, recordOperation, type BalanceColumn } from './ledger.ts'
import { bondTerms, insertMint } from './mints.ts'
import type { Plan } from './plans.ts'
import { userRow } from './users.ts'
import type { LinkRow, MintRow } from './rows.ts'

export const MAX_ACTIVATIONS = 1000
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

const newCode = (): string => [...randomBytes(10)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')

export interface FarmingInput {
  readonly amount: bigint
  readonly plan: Plan
  readonly countActivations: number
  readonly fromRefBalance: boolean
  readonly fromTaskBalance: boolean
  readonly isMultilink: boolean
  readonly isForMe: boolean
}

/**
 * The balance a farming link is funded from: the referral balance (`from_ref_balance`), the task
 * balance (`from_task_balance`), or the main balance when neither flag is set — the three
 * re-bonding screens of the app. Both flags at once is refused.
 */
export const sourceColumn = (fromRef: boolean, fromTask: boolean): BalanceColumn => {
  if (fromRef && fromTask) throw new InvalidInput('Choose at most one of from_ref_balance and from_task_balance')
  return fromRef ? 'referral_balance' : fromTask ? 'task_balance' : 'balance_token'
}

const BALANCE_NAMES: Record<BalanceColumn, string> = {
  balance_token: 'main balance',
  referral_balance: 'referral balance',
  task_balance: 'task balance',
}

/** What the chosen balance holds now, in nano-units. */
export const sourceBalance = async (ctx: ServerContext, userId: bigint, column: BalanceColumn): Promise<bigint> =>
  big(await userRow(ctx, userId), column)

/**
 * `POST /farming/create`: amount × count_activations leaves the chosen balance into the link, in one
 * transaction; a fund above that balance is refused with 400 and changes nothing.
 */
export const createLink = (ctx: ServerContext, userId: bigint, input: FarmingInput) =>
  inTx(ctx, async (ctx) => {
    const column = sourceColumn(input.fromRefBalance, input.fromTaskBalance)
    if (!input.isMultilink && input.countActivations !== 1)
      throw new InvalidInput('A single-use link (is_multilink false) has count_activations 1')
    // Its creator activates a link for themself once: more activations could never be used.
    if (input.isForMe && input.countActivations !== 1)
      throw new InvalidInput('A link for yourself (is_for_me) has count_activations 1')
    const fund = input.amount * BigInt(input.countActivations)
    const held = await sourceBalance(ctx, userId, column)
    if (fund > held)
      throw new InsufficientBalance(
        `the link needs ${formatNano(fund)} AXIOM from your ${BALANCE_NAMES[column]}, which holds ${formatNano(held)} AXIOM`,
      )
    const id = await insertRow(
      ctx.db,
      `INSERT INTO farming_links (user_id, activation_code, amount, days, daily_reward, count_activations,
         from_ref_balance, from_task_balance, is_multilink, is_for_me, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)`,
      userId,
      newCode(),
      input.amount,
      input.plan.days,
      input.plan.dailyReward,
      input.countActivations,
      input.fromRefBalance ? 1 : 0,
      input.fromTaskBalance ? 1 : 0,
      input.isMultilink ? 1 : 0,
      input.isForMe ? 1 : 0,
      ctx.now(),
    )
    const spentLocked = await moveBalance(ctx, userId, column, -fund, 'farming_fund', `Farming link #${id} funded`)
    // Given tokens stay given: task rewards, like the welcome balance, fund bonds but are never sold, so a
    // link funded from the task balance carries its whole fund locked (its bonds' principal comes back
    // locked); from the main balance it carries the locked part it spent.
    const locked = column === 'task_balance' && ctx.config.welcomePolicy === 'locked' ? fund : spentLocked
    if (locked > 0n) await run(ctx.db, 'UPDATE farming_links SET locked_nano = ? WHERE id = ?', locked, id)
    return (await getRow<LinkRow>(ctx.db, 'SELECT * FROM farming_links WHERE id = ?', id))!
  })

/** `POST /farming/{id}/cancel`: revokes an active link and refunds its unused activations. */
export const cancelLink = (ctx: ServerContext, userId: bigint, linkId: bigint): Promise<LinkRow> =>
  inTx(ctx, async (ctx) => {
    const row = await getRow(ctx.db, 'SELECT * FROM farming_links WHERE id = ? AND user_id = ?', linkId, userId)
    if (!row) throw new NotFound('Farming link')
    const status = str(row, 'status')
    if (status !== 'active') throw new NotCancellable('link', status)
    const unused = big(row, 'count_activations') - big(row, 'used_activations')
    await run(ctx.db, `UPDATE farming_links SET status = 'revoked', locked_nano = 0 WHERE id = ?`, linkId)
    const column = sourceColumn(bool(row, 'from_ref_balance'), bool(row, 'from_task_balance'))
    const refund = unused * big(row, 'amount')
    // Back where it came from: the locked part to the main balance locked; a task-funded link to the task balance.
    await moveBalance(ctx, userId, column, refund, 'farming_refund', `Farming link #${linkId} revoked, unused part refunded`, big(row, 'locked_nano'))
    return (await getRow<LinkRow>(ctx.db, 'SELECT * FROM farming_links WHERE id = ?', linkId))!
  })

/** What activating a link came to: the user's bond from it, or why there is none. */
export type Activation = { readonly status: 'ACTIVE'; readonly mint: MintRow } | { readonly status: 'REVOKED' | 'REACHED' }

/**
 * `GET /farming/activation-status`: activates the link for this user (once per user and code) and
 * reports ACTIVE with the bond; REACHED when used up, REVOKED when cancelled. A repeat by a user who
 * already activated answers ACTIVE with the same bond. `is_for_me` links are for their creator only;
 * shared links are not for their creator.
 */
export const activateLink = (ctx: ServerContext, userId: bigint, code: string): Promise<Activation> =>
  inTx(ctx, async (ctx) => {
    const link = await getRow(ctx.db, 'SELECT * FROM farming_links WHERE activation_code = ?', code)
    if (!link) throw new NotFound('Farming link')
    const linkId = big(link, 'id')
    const days = num(link, 'days')
    const active = (mint: MintRow): Activation => ({ status: 'ACTIVE', mint })
    const done = await getRow<MintRow>(
      ctx.db,
      'SELECT m.* FROM farming_activations a JOIN mints m ON m.id = a.mint_id WHERE a.link_id = ? AND a.user_id = ?',
      linkId,
      userId,
    )
    if (done) return active(done)
    const status = str(link, 'status')
    if (status === 'revoked') return { status: 'REVOKED' }
    if (status === 'reached' || big(link, 'used_activations') >= big(link, 'count_activations'))
      return { status: 'REACHED' }
    const isCreator = big(link, 'user_id') === userId
    if (bool(link, 'is_for_me') && !isCreator) throw new NotYourLink('This link can only be activated by its creator')
    if (!bool(link, 'is_for_me') && isCreator) throw new NotYourLink('You cannot activate your own shared link')
    const amount = big(link, 'amount')
    const terms = await bondTerms(ctx, userId, amount, days, big(link, 'daily_reward'))
    const mintId = await insertMint(ctx, userId, terms, 'active', 'farming', linkId)
    // The bond's principal takes the link's locked tokens first, and carries them: they come back locked.
    const linkLocked = big(link, 'locked_nano')
    const locked = linkLocked < amount ? linkLocked : amount
    if (locked > 0n) {
      await run(ctx.db, 'UPDATE mints SET locked_nano = ? WHERE id = ?', locked, mintId)
      await run(ctx.db, 'UPDATE farming_links SET locked_nano = locked_nano - ? WHERE id = ?', locked, linkId)
    }
    const used = big(link, 'used_activations') + 1n
    await run(
      ctx.db,
      'UPDATE farming_links SET used_activations = ?, status = ? WHERE id = ?',
      used,
      used >= big(link, 'count_activations') ? 'reached' : 'active',
      linkId,
    )
    await run(ctx.db, 'INSERT INTO farming_activations (link_id, user_id, mint_id, created_at) VALUES (?, ?, ?, ?)', linkId, userId, mintId, ctx.now())
    await recordOperation(ctx, userId, 'farming_bond', 'none', 'token', amount, `Bond #${mintId} from a farming link`)
    if (!isCreator) {
      const friend = await getRow(ctx.db, 'SELECT name FROM users WHERE id = ?', userId)
      await queueNotice(ctx, big(link, 'user_id'), 'farming_used', { name: friend ? str(friend, 'name') : 'A friend', amount: formatNano(amount) })
    }
    return active((await getRow<MintRow>(ctx.db, 'SELECT * FROM mints WHERE id = ?', mintId))!)
  })
