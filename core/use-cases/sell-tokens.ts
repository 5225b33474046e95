import { Effect } from 'effect'
import { isTonAddress } from '../domain/address.ts'
import { positiveAmount } from '../domain/amount-input.ts'
import { InvalidInput } from '../errors.ts'
import type { AxiomApi, CreateOptions } from '../ports/axiom-api.port.ts'

export interface SaleRequest {
  readonly amount: number
  readonly address: string
  readonly fromReferral: boolean
}

/** Sells tokens to an external TON address, from the main or the referral balance. */
export const sellTokens = (deps: { readonly api: Pick<AxiomApi, 'createWithdraw'> }) => (r: SaleRequest, options?: CreateOptions) =>
  Effect.gen(function* () {
    yield* positiveAmount('token_amount', r.amount)
    const address = r.address.trim()
    if (!isTonAddress(address))
      return yield* Effect.fail(new InvalidInput({ field: 'address', msg: 'Enter a valid TON address' }))
    return yield* deps.api.createWithdraw(
      { from_ref_balance: r.fromReferral, token_amount: r.amount, address },
      options,
    )
  })
