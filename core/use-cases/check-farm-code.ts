import { Effect } from 'effect'
import { farmCodeFlagKey } from '../domain/farm-code.ts'
import type { FarmingActivation } from '../domain/entities/farming.ts'
import type { ApiError } from '../errors.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import type { KeyValueStore } from '../ports/key-value-store.port.ts'

/**
 * Checks (and so activates) a farm code once per code (spec §4): a code already checked on this
 * device answers null without a call. The flag is set only once the server answered.
 */
export const checkFarmCode =
  (deps: { readonly api: Pick<AxiomApi, 'farmingActivationStatus'>; readonly storage: KeyValueStore }) =>
  (code: string): Effect.Effect<FarmingActivation | null, ApiError> =>
    Effect.gen(function* () {
      const key = farmCodeFlagKey(code)
      if (deps.storage.get(key)) return null
      const result = yield* deps.api.farmingActivationStatus({ activation_code: code })
      if (result) deps.storage.set(key, '1')
      return result
    })
