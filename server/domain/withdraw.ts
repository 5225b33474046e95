import { Address } from '@ton/core'
import { InvalidInput } from './errors.ts'
import { getRow, insertRow, num } from '../db/sql.ts'
import { inTx, type ServerContext } from './context.ts'
import { formatNano, mulNano, percentOfUp, PERCENT_SCALE } from './money.ts'
import { queueNotice } from './outbox.ts'
import { moveBalance } from './ledger.ts'
import { userRow } from './users.ts'
import type { UserRow, WithdrawalRow } from './rows.ts'
import { quotePrice } from './recorded-price.ts'

/** The sale fee: 3 % of token_amount, floored to nano. */
export const WITHDRAW_FEE = 3n * PERCENT_SCALE

/** A sale of `tokenAmount`: the fee kept, the rest (`net`) paid out as `amountTon` at the current price; all nano-units. */
export interface WithdrawQuote {
  readonly tokenAmount: bigint
  readonly fee: bigint
  readonly net: bigint
  readonly amountTon: bigint
}

/**
 * `GET /withdraw/calculate`, and `POST /withdraw/create` in its transaction: the TON at quotePrice's
 * price, refused with 409 while the recorded price is out of date.
 */
export const withdrawQuote = async (ctx: ServerContext, tokenAmount: bigint): Promise<WithdrawQuote> => {
  const fee = percentOfUp(tokenAmount, WITHDRAW_FEE)
  const net = tokenAmount - fee
  return { tokenAmount, fee, net, amountTon: mulNano(net, await quotePrice(ctx)) }
}

/** A TON address in raw (`0:<64 hex>`) or friendly form on workchain 0 or -1, as @ton/core reads it; else 422. */
export const parseTonAddress = (input: unknown): string => {
  if (typeof input !== 'string' || input.length > 100) throw new InvalidInput('address must be a TON address')
  const text = input.trim()
  if (!Address.isFriendly(text) && !Address.isRaw(text)) throw new InvalidInput('address must be a TON address')
  let workchain: number
  try {
    workchain = Address.parse(text).workChain
  } catch {
    throw new InvalidInput('address must be a TON address')
  }
  if (workchain !== 0 && workchain !== -1) throw new InvalidInput('address must be on workchain 0 or -1')
  return text
}

/**
 * The network this deployment pays on, when it names one: the single tonProof network production
 * accepts (AXIOM_TON_NETWORK's global id, '-239' mainnet or '-3' testnet). Null in development, which
 * accepts both.
 */
export const payoutNetwork = (ctx: ServerContext): '-239' | '-3' | null => {
  const networks = ctx.config.tonProofNetworks
  return networks.length === 1 && (networks[0] === '-239' || networks[0] === '-3') ? networks[0] : null
}

export const TREASURY_ADDRESS_MSG = "address is AXIOM's own treasury: enter the address of your own wallet"
export const networkMismatchMsg = (network: '-239' | '-3'): string =>
  network === '-239' ? 'address is a testnet address, but AXIOM pays on mainnet' : 'address is a mainnet address, but AXIOM pays on testnet'

/**
 * Where a sale may be paid (`POST /withdraw/create`): a TON address (parseTonAddress) that is not the
 * treasury itself (a payout to it would be a sale the treasury pays itself, its tokens burnt), and,
 * friendly, not flagged for the other network (a testnet address on mainnet names a wallet its owner
 * does not hold there). Stored in one form whatever was typed: friendly, non-bounceable (a wallet, as
 * /user/me's wallet_address), url-safe, test-flagged on testnet (in development: as typed). The
 * payouts and the history read any form, so the rows stored as typed before this rule stay valid.
 */
export const saleAddress = (ctx: ServerContext, input: unknown): string => {
  const text = parseTonAddress(input)
  const network = payoutNetwork(ctx)
  const typedTestOnly = Address.isFriendly(text) ? Address.parseFriendly(text).isTestOnly : null
  if (network !== null && typedTestOnly !== null && typedTestOnly !== (network === '-3')) throw new InvalidInput(networkMismatchMsg(network))
  const address = Address.parse(text)
  if (address.equals(Address.parse(ctx.config.treasuryAddress))) throw new InvalidInput(TREASURY_ADDRESS_MSG)
  const testOnly = network === null ? typedTestOnly === true : network === '-3'
  return address.toString({ bounceable: false, urlSafe: true, testOnly })
}

/** Whether two addresses name the same account, whatever form each is in (friendly or raw, any flags). */
export const sameAccount = (a: string, b: string): boolean => {
  try {
    return Address.parse(a).equals(Address.parse(b))
  } catch {
    return false
  }
}

/**
 * When a sale of `userId` to `address` may join the payout queue (unix seconds), or null: at once.
 * With a cooling period (config.newAddressDelayS, AXIOM_NEW_ADDRESS_DELAY) a sale waits it unless it
 * goes to the wallet the user proved with tonProof (users.wallet_address, raw; compared as accounts,
 * so its friendly form is the same wallet). A wallet proved less than the period ago waits the rest
 * of it: binding a wallet needs only the session, so a stolen one could bind its own and sell to it.
 */
export const saleReleaseAt = async (ctx: ServerContext, userId: bigint, address: string): Promise<number | null> => {
  const delay = ctx.config.newAddressDelayS
  if (delay <= 0) return null
  const now = ctx.now()
  const user = await getRow(ctx.db, 'SELECT wallet_address, wallet_bound_at FROM users WHERE id = ?', userId)
  const wallet = user?.wallet_address
  if (typeof wallet !== 'string' || !sameAccount(wallet, address)) return now + delay
  const boundAt = user!.wallet_bound_at === null || user!.wallet_bound_at === undefined ? null : num(user!, 'wallet_bound_at')
  return boundAt !== null && boundAt + delay > now ? boundAt + delay : null
}

/**
 * `POST /withdraw/create`: the whole token_amount is reserved now; the record waits as pending for
 * payout, until its release_at when it goes to an address the user has not proven (saleReleaseAt).
 * The user is told in the bot's chat of every sale, with the address and the amounts; a waiting
 * one's message carries a button that cancels it (server/telegram/notice-text.ts).
 */
export const createWithdrawal = (ctx: ServerContext, userId: bigint, fromRef: boolean, tokenAmount: bigint, address: string): Promise<WithdrawalRow> =>
  inTx(ctx, async (ctx) => {
    // Before anything is written or reserved: an out-of-date price refuses the sale with nothing changed.
    const q = await withdrawQuote(ctx, tokenAmount)
    const releaseAt = await saleReleaseAt(ctx, userId, address)
    const id = await insertRow(
      ctx.db,
      `INSERT INTO withdrawals (user_id, from_ref_balance, token_amount, fee, net_amount, amount_ton, address, status, created_at, release_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      userId,
      fromRef ? 1 : 0,
      tokenAmount,
      q.fee,
      q.net,
      q.amountTon,
      address,
      ctx.now(),
      releaseAt,
    )
    await moveBalance(ctx, userId, fromRef ? 'referral_balance' : 'balance_token', -tokenAmount, 'withdraw', `Sale #${id} to ${address}`)
    await queueNotice(ctx, userId, 'sale_created', {
      sale_id: Number(id),
      address,
      amount_ton: formatNano(q.amountTon),
      token_amount: formatNano(tokenAmount),
      ...(releaseAt !== null ? { release_at: releaseAt } : {}),
    })
    return ((await getRow<WithdrawalRow>(ctx.db, 'SELECT * FROM withdrawals WHERE id = ?', id)))!
  })

/** `POST /withdraw/transfer-from-referral-balance`: the user after the move. */
export const transferFromReferral = (ctx: ServerContext, userId: bigint, amount: bigint): Promise<UserRow> =>
  inTx(ctx, async (ctx) => {
    await moveBalance(ctx, userId, 'referral_balance', -amount, 'transfer_out', 'Moved to the main balance')
    await moveBalance(ctx, userId, 'balance_token', amount, 'transfer_in', 'Moved from the referral balance')
    return userRow(ctx, userId)
  })
