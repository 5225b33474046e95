import { Effect } from 'effect'
import { isTonAddress } from '../domain/address.ts'
import { HISTORY_PAGE_SIZE } from '../domain/constants.ts'
import { InvalidInput } from '../errors.ts'
import type { AxiomApi, CreateOptions } from '../ports/axiom-api.port.ts'

type WithdrawApi = Pick<AxiomApi, 'calculateWithdraw' | 'createWithdraw' | 'withdrawHistory' | 'transferFromReferral'>

const positiveAmount = (amount: number) =>
  Number.isFinite(amount) && amount > 0
    ? Effect.void
    : Effect.fail(new InvalidInput({ field: 'token_amount', msg: 'Enter an amount above zero' }))

/** What a sale of `amount` tokens pays out, after the fee. */
export const quoteSale = (deps: { readonly api: WithdrawApi }) => (amount: number) =>
  positiveAmount(amount).pipe(Effect.andThen(deps.api.calculateWithdraw({ token_amount: amount })))

export interface SaleRequest {
  readonly amount: number
  readonly address: string
  readonly fromReferral: boolean
}

/** Sells tokens to an external TON address, from the main or the referral balance. */
export const sellTokens = (deps: { readonly api: WithdrawApi }) => (r: SaleRequest, options?: CreateOptions) =>
  Effect.gen(function* () {
    yield* positiveAmount(r.amount)
    const address = r.address.trim()
    if (!isTonAddress(address))
      return yield* Effect.fail(new InvalidInput({ field: 'address', msg: 'Enter a valid TON address' }))
    return yield* deps.api.createWithdraw(
      { from_ref_balance: r.fromReferral, token_amount: r.amount, address },
      options,
    )
  })

/** Moves referral balance into the main balance. */
export const transferReferralBalance = (deps: { readonly api: WithdrawApi }) => (amount: number, options?: CreateOptions) =>
  positiveAmount(amount).pipe(Effect.andThen(deps.api.transferFromReferral({ token_amount: amount }, options)))

/** One page of withdraw history, 10 a page, newest first (spec §7, §9). */
export const loadWithdrawHistory = (deps: { readonly api: WithdrawApi }) => (page: number) =>
  deps.api.withdrawHistory({ page, limit: HISTORY_PAGE_SIZE })
