import { Effect } from 'effect'
import { NetworkError } from '../../core/errors.ts'
import type { ChainReader } from '../../core/ports/chain-reader.port.ts'
import { loadTonClient } from './load-ton-modules.ts'

/**
 * Reads wallet balances from a TON node's v4 API (TonClient4: /block/latest, then the account at
 * that block). @ton/ton is loaded on first use, which comes after a purchase, not at start-up.
 */
export class TonClient4ChainReader implements ChainReader {
  private client: Promise<{
    balance: (address: string) => Promise<bigint>
  }> | null = null

  constructor(private readonly endpoint: string) {}

  balance(address: string): Effect.Effect<bigint, NetworkError> {
    return Effect.tryPromise({
      try: async () => (await this.load()).balance(address),
      catch: (cause) => new NetworkError({ cause }),
    })
  }

  private load() {
    this.client ??= loadTonClient().then(({ ton, core }) => {
      const client = new ton.TonClient4({ endpoint: this.endpoint, timeout: 10_000 })
      return {
        balance: async (address: string) => {
          const last = await client.getLastBlock()
          const account = await client.getAccountLite(last.last.seqno, core.Address.parse(address))
          return BigInt(account.account.balance.coins)
        },
      }
    })
    return this.client
  }
}
