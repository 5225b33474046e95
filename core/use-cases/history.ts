import { HISTORY_PAGE_SIZE } from '../domain/constants.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'

/** One page of the operations history, asked for by page and size: 10 a page, newest first (spec §7, §9). */
export const loadOperationsHistory = (deps: { readonly api: Pick<AxiomApi, 'operationsHistory'> }) => (page: number) =>
  deps.api.operationsHistory({ page, size: HISTORY_PAGE_SIZE })

/** How many pages a total makes at the history page size. */
export const pageCount = (total: number, size = HISTORY_PAGE_SIZE): number => Math.max(1, Math.ceil(total / size))
