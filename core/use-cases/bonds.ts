import { Effect } from 'effect'
import { activePlansByDays } from '../domain/bond-plans.ts'
import { keepNewestPending } from '../domain/pending-records.ts'
import type { Id } from '../domain/entities/primitives.ts'
import { InvalidInput } from '../errors.ts'
import type { AxiomApi, CreateOptions } from '../ports/axiom-api.port.ts'
import { type Clock, nowSeconds } from '../ports/clock.port.ts'

type BondApi = Pick<AxiomApi, 'mints' | 'mintPlans' | 'calculateMint' | 'cancelMint' | 'stakes' | 'createStake' | 'calculateStake'>

/** The bond plans a user may pick: active ones, sorted by days (spec §9). */
export const loadBondPlans = (deps: { readonly api: BondApi }) => deps.api.mintPlans().pipe(Effect.map(activePlansByDays))

/** The user's mints, with only the newest pending one under 3 minutes old kept (spec §4). */
export const loadMints = (deps: { readonly api: BondApi; readonly clock: Clock }) =>
  deps.api.mints().pipe(Effect.map((page) => keepNewestPending(page.items, nowSeconds(deps.clock))))

/** The user's stakes, with the same pending rule. */
export const loadStakes = (deps: { readonly api: BondApi; readonly clock: Clock }) =>
  deps.api.stakes().pipe(Effect.map((page) => keepNewestPending(page.items, nowSeconds(deps.clock))))

const positive = (field: string, value: number) =>
  Number.isFinite(value) && value > 0
    ? Effect.void
    : Effect.fail(new InvalidInput({ field, msg: `${field} must be a positive number` }))

/** A preview of a bond of `amount` for `days` (spec §7 GET /mint/calculate). */
export const quoteBond = (deps: { readonly api: BondApi }) => (amount: number, days: number) =>
  positive('amount', amount).pipe(Effect.andThen(deps.api.calculateMint({ amount, freeze_days: days })))

export const cancelBond = (deps: { readonly api: BondApi }) => (id: Id) => deps.api.cancelMint(id)

/** A preview of staking a mint (spec §7 GET /staking/calculate). */
export const quoteStake = (deps: { readonly api: BondApi }) => (mintId: Id) => deps.api.calculateStake({ staking_id: mintId })

/** Stakes a mint (spec §4: a mint can be staked). */
export const stakeMint = (deps: { readonly api: BondApi }) => (mintId: Id, options?: CreateOptions) =>
  deps.api.createStake({ mint_id: mintId }, options)
