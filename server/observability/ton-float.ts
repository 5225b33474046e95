import { NANO } from '../domain/money.ts'

/**
 * A nanoton amount as TON, for a metric only (a Prometheus sample is a float; the server's money never
 * is): the whole TON and the nanotons are divided apart and added at the end, so nothing is rounded
 * before the last step.
 */
export const tonOf = (nano: bigint): number => Number(nano / NANO) + Number(nano % NANO) / 1e9
