import type { AxiomApi } from './axiom-api.port.ts'
import type { ChainReader } from './chain-reader.port.ts'
import type { Clipboard } from './clipboard.port.ts'
import type { Clock } from './clock.port.ts'
import type { HttpTransport } from './http-transport.port.ts'
import type { KeyValueStore } from './key-value-store.port.ts'
import type { Notifier } from './notifier.port.ts'
import type { Platform } from './platform.port.ts'
import type { SessionStore } from './session-store.port.ts'
import type { SocketFactory } from './socket.port.ts'
import type { Wallet } from './wallet.port.ts'

/**
 * The adapters a front end brings: the browser's (adapters/browser/browser-ports.ts) or the CLI's
 * (cli/context.ts). The product API is built over `http` by core/api/http-axiom-api.ts.
 */
export interface PortBindings {
  readonly http: HttpTransport
  readonly sockets: SocketFactory
  readonly session: SessionStore
  readonly storage: KeyValueStore
  readonly clock: Clock
  readonly platform: Platform
  readonly wallet: Wallet
  readonly chain: ChainReader
  /** Where notices go; the app's default is its toast queue. */
  readonly notifier?: Notifier
  /** Absent where there is nothing to copy to (the CLI): copying then reports a refusal. */
  readonly clipboard?: Clipboard
  /** How long a wallet transaction is valid, in seconds; absent, spec §5's 60 (a test build sets it shorter). */
  readonly transactionValiditySeconds?: number
}

/** What the use cases run on: the bindings, with the product API in place of the raw transport. */
export interface CorePorts extends Omit<PortBindings, 'http' | 'notifier'> {
  readonly api: AxiomApi
  readonly notifier: Notifier
}
