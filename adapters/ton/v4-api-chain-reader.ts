import { Effect, Schema } from 'effect'
import { friendlyFromRaw, isRawAddress } from '../../core/domain/address.ts'
import { NetworkError } from '../../core/errors.ts'
import type { ChainReader } from '../../core/ports/chain-reader.port.ts'

/** `GET /block/latest`: the masterchain block the account is read at. */
const LatestBlock = Schema.Struct({ last: Schema.Struct({ seqno: Schema.Number }) })
/** `GET /block/{seqno}/{address}/lite`: the account's balance in nanotons, as a decimal string. */
const AccountLite = Schema.Struct({
  account: Schema.Struct({ balance: Schema.Struct({ coins: Schema.String }) }),
})

const nanotons = (coins: string): bigint => {
  if (!/^\d+$/.test(coins)) throw new Error(`not a balance: ${coins}`)
  return BigInt(coins)
}

export interface V4ApiChainReaderOptions {
  readonly timeoutMs?: number
  readonly fetch?: typeof globalThis.fetch
}

/**
 * Reads wallet balances from a TON node's v4 API (ton-api-v4, the protocol @ton/ton's TonClient4
 * speaks): the latest block, then the account at that block. It reads the two routes with `fetch`
 * and decodes the two fields it needs; TonClient4 would bring @ton/ton with axios and zod (56 KiB gz)
 * into the app for the same two requests (docs/benchmarks.md). Any failure, a bad answer included,
 * is a NetworkError, which the purchase's balance poll treats as "try again".
 */
export class V4ApiChainReader implements ChainReader {
  private readonly endpoint: string
  private readonly timeoutMs: number
  private readonly fetch: typeof globalThis.fetch

  constructor(endpoint: string, options: V4ApiChainReaderOptions = {}) {
    this.endpoint = endpoint.replace(/\/+$/, '')
    this.timeoutMs = options.timeoutMs ?? 10_000
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  }

  balance(address: string): Effect.Effect<bigint, NetworkError> {
    return this.get(LatestBlock, '/block/latest').pipe(
      // A raw address is sent in the friendly form, as TonClient4 sends every address.
      Effect.flatMap((latest) =>
        this.get(AccountLite, `/block/${latest.last.seqno}/${encodeURIComponent(isRawAddress(address) ? friendlyFromRaw(address) : address)}/lite`),
      ),
      Effect.flatMap((lite) =>
        Effect.try({ try: () => nanotons(lite.account.balance.coins), catch: (cause) => new NetworkError({ cause }) }),
      ),
    )
  }

  private get<A>(schema: Schema.Codec<A, unknown>, path: string): Effect.Effect<A, NetworkError> {
    return Effect.tryPromise({
      try: async (signal) => {
        // Aborted by the effect's interruption or the timeout. (By hand: AbortSignal.any needs
        // Chrome 116 / Safari 17.4, newer than some Telegram WebViews.)
        const abort = new AbortController()
        const onAbort = () => abort.abort(signal.reason)
        signal.addEventListener('abort', onAbort, { once: true })
        const timer = setTimeout(() => abort.abort(new Error(`v4 API: no answer to ${path} in ${this.timeoutMs} ms`)), this.timeoutMs)
        try {
          const res = await this.fetch(this.endpoint + path, { signal: abort.signal })
          if (!res.ok) throw new Error(`v4 API answered ${res.status} to ${path}`)
          return Schema.decodeUnknownSync(schema)(await res.json())
        } finally {
          clearTimeout(timer)
          signal.removeEventListener('abort', onAbort)
        }
      },
      catch: (cause) => new NetworkError({ cause }),
    })
  }
}
