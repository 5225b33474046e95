import { Effect } from 'effect'
import { isMaintenanceOff } from '../domain/maintenance.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'

/**
 * Whether the product is under maintenance (spec §4). Null when the answer was unusable, so that
 * the caller keeps what it knew.
 */
export const checkMaintenance = (deps: { readonly api: Pick<AxiomApi, 'maintenance'> }) =>
  deps.api.maintenance().pipe(
    Effect.map((status) => (status ? !isMaintenanceOff(status.detail) : null)),
    Effect.catch(() => Effect.succeed(null)),
  )
