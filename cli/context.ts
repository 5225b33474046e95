import { Effect } from 'effect'
import {
  type ChainReader,
  type Clock,
  makeHttpAxiomApi,
  type SessionStore,
  type SocketFactory,
  type UseCases,
  useCases,
  type WalletTransaction,
} from '../core/index.ts'
import { FetchHttpTransport } from '../adapters/shared/fetch-http-transport.ts'
import { SystemClock } from '../adapters/shared/system-clock.ts'
import { V4ApiChainReader } from '../adapters/ton/v4-api-chain-reader.ts'
import { axiomHome } from '../adapters/node/axiom-home.ts'
import { FileKeyValueStore, FileSessionStore } from '../adapters/node/file-stores.ts'
import { WsSocketFactory } from '../adapters/node/ws-socket-factory.ts'
import { CliNotifier } from './cli-notifier.ts'
import type { TonConnectSdkWallet } from '../adapters/node/ton-connect-sdk-wallet.ts'
import { CliLinkOpener, cliWallet, type CliWalletSetup, walletSetup } from './cli-wallet.ts'
import { LaunchFile, NodePlatform } from '../adapters/node/node-platform.ts'
import { type OutStream, Spinners } from './output.ts'

/** The local reference backend (`npm run server`). */
export const DEFAULT_API = 'http://127.0.0.1:8787'

/** Everything a command reaches the world through: injected, so tests run the CLI in-process. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdout: OutStream
  readonly stderr: OutStream
  /** Aborts a long-running command (`watch`): Ctrl-C in the real process. */
  readonly signal?: AbortSignal
  /** Overrides the system clock (tests). */
  readonly clock?: Clock
}

/**
 * The CLI's world: the core's use cases over Node adapters, as the mini app has them but without the
 * app's error policy: a failure comes back typed, and the command's exit code is chosen from it.
 */
export interface CliContext {
  readonly io: CliIo
  readonly origin: string
  readonly home: string
  readonly uc: UseCases
  readonly session: SessionStore
  readonly sockets: SocketFactory
  readonly clock: Clock
  readonly platform: NodePlatform
  readonly launchFile: LaunchFile
  readonly storage: FileKeyValueStore
  readonly notifier: CliNotifier
  /** The TON Connect wallet (the same instance the core's use cases hold). */
  readonly wallet: TonConnectSdkWallet
  readonly chain: ChainReader
  readonly ton: CliWalletSetup
  readonly links: CliLinkOpener
  /** Per-command hooks: `bond` shows the payment the wallet is asked to send. */
  readonly walletHooks: { onSendTransaction: ((tx: WalletTransaction) => void) | null }
  readonly spinners: Spinners
  /** Lines on stderr that keep clear of a running spinner. */
  readonly notice: (line: string) => void
  /** Closes what the run opened (the wallet's bridge stream). */
  dispose(): void
}

export const composeCli = (io: CliIo, spinners: Spinners = new Spinners(null)): CliContext => {
  const origin = (io.env.AXIOM_API || DEFAULT_API).replace(/\/+$/, '')
  const home = axiomHome(io.env as NodeJS.ProcessEnv)
  const launchFile = new LaunchFile(home)
  const stderr = spinners.lines(io.stderr)
  const notice = (line: string) => void stderr.write(`${line}\n`)
  const notifier = new CliNotifier(stderr)
  const platform = new NodePlatform(launchFile, notice)
  const ton = walletSetup(io.env)
  const chain: ChainReader = new V4ApiChainReader(ton.v4Endpoint)
  const links = new CliLinkOpener(ton, notice, io.env)
  const walletHooks: CliContext['walletHooks'] = { onSendTransaction: null }
  const debug = io.env.AXIOM_DEBUG === '1'
  const wallet = cliWallet(home, ton, links, {
    onSendTransaction: (tx) => walletHooks.onSendTransaction?.(tx),
    ...(debug ? { sdkLog: (level: string, args: unknown[]) => notice(`[tonconnect ${level}] ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`) } : {}),
  })
  const session = new FileSessionStore(home)
  const sockets = new WsSocketFactory(origin)
  const storage = new FileKeyValueStore(home)
  const clock = io.clock ?? new SystemClock()
  const api = makeHttpAxiomApi({ http: new FetchHttpTransport({ origin }), session })
  return {
    io,
    origin,
    home,
    uc: useCases({ api, sockets, session, storage, clock, platform, notifier, wallet, chain }),
    session,
    sockets,
    clock,
    platform,
    launchFile,
    storage,
    notifier,
    wallet,
    chain,
    ton,
    links,
    walletHooks,
    spinners,
    notice,
    dispose: () => wallet.close(),
  }
}

/** A typed failure of a core effect, carried out of the promise world to the exit-code mapping. */
export class EffectFailure extends Error {
  constructor(readonly error: { readonly _tag: string }) {
    super(error._tag)
  }
}

/** Runs a core effect: its value, or an EffectFailure with its typed error. */
export const runEffect = async <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>): Promise<A> => {
  const result = await Effect.runPromise(Effect.result(effect))
  if (result._tag === 'Success') return result.success
  throw new EffectFailure(result.failure)
}
