import { Schema } from 'effect'
import { CollectiveBonus, CurrentCandle, Price } from '../domain/entities/market.ts'
import { LiveMintEvent, LiveStakeEvent, type Mint, type Stake } from '../domain/entities/mint.ts'
import { BalanceUpdate } from '../domain/entities/user.ts'
import { liveMintToMint, liveStakeToStake } from '../domain/pending-records.ts'

/** A live event from the sockets (spec §3), decoded and in the shapes the app keeps. */
export type LiveEvent =
  | { readonly event: 'price_update'; readonly data: Price }
  | { readonly event: 'global:collective_bonus'; readonly data: { readonly collective_bonus: number } }
  | { readonly event: 'user:balance'; readonly data: BalanceUpdate }
  | { readonly event: 'user:mint'; readonly data: Mint }
  | { readonly event: 'user:staking'; readonly data: Stake }
  | { readonly event: 'current_candle'; readonly data: CurrentCandle }
  | { readonly event: 'chain:payment'; readonly data: PaymentSignal }

/**
 * `chain:payment`, the reference backend's own event (not the spec's): what the chain's stream saw
 * before the backend credited it. A bond's payment `seen`, or `withdrawn` (taken back before its
 * block); a sale's payout `sent` (the treasury's message seen), then `paid` (confirmed in the
 * treasury's history). The bond is active only on its `user:mint`. A state of the other kind (a bond
 * `paid`, a sale `seen`) is no signal the backend sends: the frame is dropped.
 */
export const PaymentSignal = Schema.Union([
  Schema.Struct({ kind: Schema.Literal('bond'), id: Schema.Number, state: Schema.Literals(['seen', 'withdrawn']) }),
  Schema.Struct({ kind: Schema.Literal('sale'), id: Schema.Number, state: Schema.Literals(['sent', 'paid']) }),
])
export type PaymentSignal = typeof PaymentSignal.Type

const Envelope = Schema.Struct({ event: Schema.String, data: Schema.Unknown })

const decoders: { readonly [K in LiveEvent['event']]: (data: unknown) => Extract<LiveEvent, { event: K }>['data'] } = {
  price_update: Schema.decodeUnknownSync(Price),
  'global:collective_bonus': Schema.decodeUnknownSync(CollectiveBonus),
  'user:balance': Schema.decodeUnknownSync(BalanceUpdate),
  'user:mint': (d) => liveMintToMint(Schema.decodeUnknownSync(LiveMintEvent)(d)),
  'user:staking': (d) => liveStakeToStake(Schema.decodeUnknownSync(LiveStakeEvent)(d)),
  current_candle: Schema.decodeUnknownSync(CurrentCandle),
  'chain:payment': Schema.decodeUnknownSync(PaymentSignal),
}

/**
 * Reads one socket message `{ "event": name, "data": {...} }`. Unknown events, bad JSON and
 * payloads the schemas refuse give null: a bad message is dropped, it never breaks the stream.
 */
export const decodeLiveEvent = (text: string): LiveEvent | null => {
  try {
    const envelope = Schema.decodeUnknownSync(Envelope)(JSON.parse(text))
    if (!Object.hasOwn(decoders, envelope.event)) return null
    const decode = decoders[envelope.event as LiveEvent['event']]
    return { event: envelope.event, data: decode(envelope.data) } as LiveEvent
  } catch {
    return null
  }
}
