import type { Effect } from 'effect'
import type { NetworkError } from '../errors.ts'

/** Reads a wallet's balance, in nano-units, from a chain node (v4 API). */
export interface ChainReader {
  balance(address: string): Effect.Effect<bigint, NetworkError>
}
