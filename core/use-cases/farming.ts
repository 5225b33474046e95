import { Effect } from 'effect'
import { farmCodeFlagKey } from '../domain/farm-code.ts'
import type { FarmingActivation, FarmingLinkInput } from '../domain/entities/farming.ts'
import type { Id } from '../domain/entities/primitives.ts'
import { type ApiError, InvalidInput } from '../errors.ts'
import type { AxiomApi, CreateOptions, FundingFlags } from '../ports/axiom-api.port.ts'
import type { KeyValueStore } from '../ports/key-value-store.port.ts'

type FarmingApi = Pick<
  AxiomApi,
  'farmingPlans' | 'farmingLinks' | 'calculateFarming' | 'createFarmingLink' | 'cancelFarmingLink' | 'farmingActivationStatus'
>

/**
 * The balance a farming link is paid from: the main balance (re-bonding from the dashboard), the
 * referral balance or the task balance (re-bonding from the referral or tasks screen).
 */
export type FundingSource = 'main' | 'referral' | 'task'

/** The §7 flags for a source: the main balance is neither flag. */
export const fundingFlags = (source: FundingSource): FundingFlags => ({
  from_ref_balance: source === 'referral',
  from_task_balance: source === 'task',
})

/** The source a link's flags name. */
export const fundingSourceOf = (flags: FundingFlags): FundingSource =>
  flags.from_ref_balance ? 'referral' : flags.from_task_balance ? 'task' : 'main'

/** Farming plans for links funded from `source`, with what that balance holds. */
export const loadFarmingPlans = (deps: { readonly api: FarmingApi }) => (source: FundingSource) =>
  deps.api.farmingPlans(fundingFlags(source))

export const loadFarmingLinks = (deps: { readonly api: FarmingApi }) => deps.api.farmingLinks().pipe(Effect.map((p) => p.items))

/** A preview of the bond each activation of a link gives, funded from `source`. */
export const quoteFarming = (deps: { readonly api: FarmingApi }) => (amount: number, days: number, source: FundingSource) =>
  deps.api.calculateFarming({ amount, freeze_days: days, ...fundingFlags(source) })

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

export const createFarmingLink = (deps: { readonly api: FarmingApi }) => (r: FarmingLinkRequest, options?: CreateOptions) =>
  farmingLinkBody(r).pipe(Effect.flatMap((body) => deps.api.createFarmingLink(body, options)))

export const cancelFarmingLink = (deps: { readonly api: FarmingApi }) => (id: Id) => deps.api.cancelFarmingLink(id)

/**
 * Checks (and so activates) a farm code once per code (spec §4): a code already checked on this
 * device answers null without a call. The flag is set only once the server answered.
 */
export const checkFarmCode =
  (deps: { readonly api: FarmingApi; readonly storage: KeyValueStore }) =>
  (code: string): Effect.Effect<FarmingActivation | null, ApiError> =>
    Effect.gen(function* () {
      const key = farmCodeFlagKey(code)
      if (deps.storage.get(key)) return null
      const result = yield* deps.api.farmingActivationStatus({ activation_code: code })
      if (result) deps.storage.set(key, '1')
      return result
    })
