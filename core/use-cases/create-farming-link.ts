import { Effect } from 'effect'
import type { FarmingLinkInput } from '../domain/entities/farming.ts'
import { type FundingSource, fundingFlags } from '../domain/funding-source.ts'
import { InvalidInput } from '../errors.ts'
import type { AxiomApi, CreateOptions } from '../ports/axiom-api.port.ts'

export interface FarmingLinkRequest {
  readonly amount: number
  readonly days: number
  readonly activations: number
  readonly source: FundingSource
  readonly multiUse: boolean
  readonly forMe: boolean
}

/** The §7 body of a farming link request, checked before it is sent. */
export const farmingLinkBody = (r: FarmingLinkRequest): Effect.Effect<FarmingLinkInput, InvalidInput> => {
  if (!(Number.isFinite(r.amount) && r.amount > 0))
    return Effect.fail(new InvalidInput({ field: 'amount', msg: 'Enter an amount above zero' }))
  if (!Number.isInteger(r.activations) || r.activations < 1)
    return Effect.fail(new InvalidInput({ field: 'count_activations', msg: 'Activations must be a whole number from 1' }))
  if (!r.multiUse && r.activations !== 1)
    return Effect.fail(new InvalidInput({ field: 'count_activations', msg: 'A single-use link has one activation' }))
  return Effect.succeed({
    amount: r.amount,
    days: r.days,
    count_activations: r.activations,
    ...fundingFlags(r.source),
    is_multilink: r.multiUse,
    is_for_me: r.forMe,
  })
}

/** Creates a farming link from a checked request. */
export const createFarmingLink = (deps: { readonly api: Pick<AxiomApi, 'createFarmingLink'> }) => (r: FarmingLinkRequest, options?: CreateOptions) =>
  farmingLinkBody(r).pipe(Effect.flatMap((body) => deps.api.createFarmingLink(body, options)))
