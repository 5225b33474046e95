import { HISTORY_PAGE_SIZE } from './constants.ts'

/** How many pages a total makes at the history page size. */
export const pageCount = (total: number, size = HISTORY_PAGE_SIZE): number => Math.max(1, Math.ceil(total / size))
