import type { AxiomApi } from '../ports/axiom-api.port.ts'

/** The signed-in user's data and balances (spec §3). */
export const loadUser = (deps: { readonly api: Pick<AxiomApi, 'me'> }) => deps.api.me()
