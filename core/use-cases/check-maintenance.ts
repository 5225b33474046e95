import { Effect } from 'effect'
import { isMaintenanceOff } from '../domain/maintenance.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'

/**
 * Whether the product is under maintenance (spec §4). A failed check fails with its error, which the
 * §8 policy tells the user as any other (a toast and the error haptic; a 500 then resolves with null,
 * unknown), so that the caller keeps what it knew.
 */
export const checkMaintenance = (deps: { readonly api: Pick<AxiomApi, 'maintenance'> }) =>
  deps.api.maintenance().pipe(Effect.map((status) => (status ? !isMaintenanceOff(status.detail) : null)))
