import { Effect } from 'effect'
import type { IStorage, TonConnect, Wallet as SdkWallet } from '@tonconnect/sdk'
import {
  DisconnectAborted,
  TransactionNotSent,
  TransactionSendingAborted,
  WalletConnectionDeclined,
  WalletNotConnected,
  WalletNotConnectedToDisconnect,
  WalletProtocolError,
  WalletRestoreFailed,
} from '../../core/errors.ts'
import type { Wallet, WalletAccount, WalletTransaction } from '../../core/ports/wallet.port.ts'
import { storedConnectionIn, TON_CONNECT_CONNECTION_KEY, WALLET_ANSWER_GRACE_MS, WALLET_DISCONNECT_TIMEOUT_MS, walletErrorFrom } from '../ton/ton-connect-wallet.ts'
import { JsonFile } from './json-file.ts'

/** The SDK's storage (IStorage) in one owner-only JSON file, so a connection outlives a CLI run. */
export class JsonFileStorage implements IStorage {
  private readonly file: JsonFile

  constructor(path: string) {
    this.file = new JsonFile(path)
  }

  async setItem(key: string, value: string): Promise<void> {
    this.file.update((v) => {
      v[key] = value
    })
  }

  async getItem(key: string): Promise<string | null> {
    return this.file.read()[key] ?? null
  }

  async removeItem(key: string): Promise<void> {
    this.file.update((v) => {
      delete v[key]
    })
  }

  /** Forgets everything the SDK stored. */
  clear(): void {
    this.file.write({})
  }
}

export interface TonConnectSdkWalletOptions {
  /** The dapp's tonconnect-manifest.json (the wallet shows its name, and signs ton_proof for its host). */
  readonly manifestUrl: string
  /** A wallets-v2.json list; the local stack serves one with the dev wallet (offline). */
  readonly walletsListSource: string
  readonly storage: IStorage & { clear?(): void }
  /** Hands the connect link to the user (print it) or to a wallet (the dev wallet's API). */
  readonly openLink: (link: string) => unknown
  /** Which wallet of the list to connect to (its app_name). Default: the AXIOM dev wallet. */
  readonly walletAppName?: string
  /** How long connect waits for the wallet's answer. Default 2 minutes. */
  readonly connectTimeoutMs?: number
  /** How long past the transaction's validUntil a sendTransaction waits for the wallet. Default 15 s. */
  readonly answerGraceMs?: number
  /** How long a disconnect waits for the bridge to take it. Default WALLET_DISCONNECT_TIMEOUT_MS. */
  readonly disconnectTimeoutMs?: number
  /** Told each transaction before it goes to the wallet (to show the payment). */
  readonly onSendTransaction?: (tx: WalletTransaction) => void
  /** Where the SDK's console logs ([TON_CONNECT_SDK] …) go. Default: dropped (console.debug is stdout in Node). */
  readonly sdkLog?: (level: 'debug' | 'warn' | 'error', args: unknown[]) => void
}

export const DEV_WALLET_APP_NAME = 'axiom-dev-wallet'
const DEFAULT_CONNECT_TIMEOUT_MS = 120_000

type Sdk = typeof import('@tonconnect/sdk')
type TonPayloads = typeof import('../ton/ton-comment-payload.ts')

const SDK_LOG_TAG = '[TON_CONNECT_SDK]'
let sdkLogSink: TonConnectSdkWalletOptions['sdkLog'] = undefined
let consolePatched = false

/**
 * The SDK logs every bridge message with console.debug, which Node writes to stdout (and would
 * break `--json`). Only its tagged lines are rerouted; every other console call is untouched.
 */
const routeSdkLogs = (sink: TonConnectSdkWalletOptions['sdkLog']) => {
  sdkLogSink = sink
  if (consolePatched) return
  consolePatched = true
  for (const level of ['debug', 'warn', 'error'] as const) {
    const original = console[level].bind(console)
    console[level] = (...args: unknown[]) => {
      if (args[0] === SDK_LOG_TAG) sdkLogSink?.(level, args.slice(1))
      else original(...args)
    }
  }
}

const isCoreError = (e: unknown): e is { readonly _tag: string } =>
  typeof e === 'object' && e !== null && typeof (e as { _tag?: unknown })._tag === 'string'

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** The SDK has no TonConnectUIError: a class nothing is an instance of stands in for it. */
class NoUiError extends Error {}

const sdkErrors = (sdk: Sdk) => ({
  UserRejectsError: sdk.UserRejectsError,
  TonConnectUIError: NoUiError,
  WalletNotConnectedError: sdk.WalletNotConnectedError,
  BadRequestError: sdk.BadRequestError,
  UnknownAppError: sdk.UnknownAppError,
  WalletNotSupportFeatureError: sdk.WalletNotSupportFeatureError,
  WalletMissingRequiredFeaturesError: sdk.WalletMissingRequiredFeaturesError,
}) as unknown as Parameters<typeof walletErrorFrom>[1]

/**
 * The core's Wallet port on the real `@tonconnect/sdk` in Node (the CLI): an HTTP-bridge
 * connection to a wallet from the wallets list, kept in a file between runs. connect() builds the
 * wallet's universal link and hands it to `openLink` (printed, or posted to the local dev wallet),
 * then waits for the wallet's answer. Every SDK failure becomes a core error; the SDK and
 * @ton/core are loaded on first use, so commands that never touch the wallet do not pay for them.
 */
export class TonConnectSdkWallet implements Wallet {
  private loaded: Promise<{ sdk: Sdk; connector: TonConnect; ton: TonPayloads }> | null = null
  private connectorRef: TonConnect | null = null
  private ton: TonPayloads | null = null
  private current: WalletAccount | null = null
  private maxMsgs = 0
  private device: SdkWallet['device'] | null = null
  /** Restoring gave up (spec §4's 12 s): a connection that restores later is not reported this run. */
  private restoreAbandoned = false
  private readonly listeners = new Set<(a: WalletAccount | null) => void>()

  constructor(private readonly options: TonConnectSdkWalletOptions) {}

  account(): WalletAccount | null {
    return this.current
  }

  maxMessages(): number {
    return this.current ? this.maxMsgs : 0
  }

  /** The connected wallet app ('axiom-dev-wallet'), or null. */
  walletApp(): string | null {
    return this.current ? (this.device?.appName ?? null) : null
  }

  connect(): Effect.Effect<WalletAccount, WalletConnectionDeclined | WalletProtocolError> {
    return Effect.tryPromise({
      try: async () => {
        const { sdk, connector } = await this.load()
        if (connector.connected && this.current) return this.current
        const appName = this.options.walletAppName ?? DEV_WALLET_APP_NAME
        const wallets = await connector.getWallets()
        const entry = wallets.find((w) => w.appName === appName)
        if (!entry || !sdk.isWalletInfoRemote(entry))
          throw new WalletProtocolError({ code: 0, message: `No TON Connect wallet "${appName}" in ${this.options.walletsListSource}` })

        const abort = new AbortController()
        let off = () => {}
        let timer: ReturnType<typeof setTimeout> | undefined
        const answered = new Promise<WalletAccount>((resolve, reject) => {
          timer = setTimeout(() => reject(new WalletConnectionDeclined()), this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS)
          off = connector.onStatusChange(
            (w) => {
              if (w) resolve(this.accountOf(w))
            },
            (e) => reject(e instanceof sdk.UserRejectsError ? new WalletConnectionDeclined() : connectErrorFrom(e, sdk)),
          )
        })
        try {
          const link = connector.connect({ universalLink: entry.universalLink, bridgeUrl: entry.bridgeUrl }, { signal: abort.signal })
          try {
            await this.options.openLink(link)
          } catch (e) {
            throw new WalletProtocolError({ code: 0, message: `Could not open the connect link: ${messageOf(e)}` })
          }
          return await answered
        } catch (e) {
          abort.abort()
          // A connection left pending would be "restored" (waited on) by every later run.
          if (!connector.connected) await this.forgetPending()
          throw e
        } finally {
          clearTimeout(timer)
          off()
        }
      },
      catch: (e) => (isCoreError(e) ? (e as WalletConnectionDeclined | WalletProtocolError) : new WalletProtocolError({ code: 0, message: messageOf(e) })),
    })
  }

  /** Nothing to load first: the SDK is a local module, loaded by restore() only when a connection is stored. */
  ready(): Effect.Effect<void, WalletRestoreFailed> {
    return Effect.void
  }

  /**
   * Restores the stored connection. With none stored (or only a connection that was never
   * answered) it answers null at once, without loading the SDK or touching the network. Not
   * restored: still stored, the wallet did not answer (tried again); removed by the SDK (the wallet
   * ended the session, or it could not be read), a definite failure.
   */
  restore(): Effect.Effect<WalletAccount | null, WalletRestoreFailed> {
    return Effect.tryPromise({
      try: async () => {
        if (this.current) return this.current
        if (storedConnectionIn(await this.options.storage.getItem(TON_CONNECT_CONNECTION_KEY)) !== 'established') {
          await this.forgetPending()
          return null
        }
        const { connector } = await this.load()
        await connector.restoreConnection()
        if (connector.connected && connector.wallet) return this.accountOf(connector.wallet)
        if (storedConnectionIn(await this.options.storage.getItem(TON_CONNECT_CONNECTION_KEY)) === 'established')
          throw new WalletRestoreFailed({ reason: 'The wallet did not answer' })
        throw new WalletRestoreFailed({ reason: 'The wallet refused the stored connection', definite: true })
      },
      catch: (e) => (e instanceof WalletRestoreFailed ? e : new WalletRestoreFailed({ reason: messageOf(e) })),
    })
  }

  /** Closes the bridge and reports nothing more this run; the file keeps the connection for the next. */
  abandonRestore(): void {
    this.restoreAbandoned = true
    this.connectorRef?.pauseConnection()
  }

  forgetStoredConnection(): void {
    this.connectorRef?.pauseConnection()
    if (this.options.storage.clear) this.options.storage.clear()
    else void this.options.storage.removeItem(TON_CONNECT_CONNECTION_KEY)
    this.setAccount(null)
  }

  sendTransaction(
    tx: WalletTransaction,
  ): Effect.Effect<{ readonly boc: string }, WalletNotConnected | TransactionNotSent | TransactionSendingAborted | WalletProtocolError> {
    return Effect.tryPromise({
      try: async () => {
        const { sdk, connector, ton } = await this.load()
        if (!connector.connected || !this.current) throw new WalletNotConnected()
        this.options.onSendTransaction?.(tx)
        const abort = new AbortController()
        let timer: ReturnType<typeof setTimeout> | undefined
        const waitMs = Math.max(0, tx.validUntil * 1000 - Date.now()) + (this.options.answerGraceMs ?? WALLET_ANSWER_GRACE_MS)
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            abort.abort()
            reject(new TransactionSendingAborted({ reason: 'The wallet did not answer in time' }))
          }, waitMs)
        })
        try {
          const sending = connector.sendTransaction(
            {
              validUntil: tx.validUntil,
              messages: tx.messages.map((m) => ({
                address: ton.transferAddress(m.address),
                amount: m.amount,
                ...(m.comment ? { payload: ton.commentPayload(m.comment) } : {}),
              })),
            },
            { signal: abort.signal },
          )
          sending.catch(() => undefined)
          const result = await Promise.race([sending, timedOut])
          return { boc: result.boc }
        } catch (e) {
          if (isCoreError(e)) throw e
          throw walletErrorFrom(e, sdkErrors(sdk))
        } finally {
          clearTimeout(timer)
        }
      },
      catch: (e) =>
        isCoreError(e)
          ? (e as WalletNotConnected | TransactionNotSent | TransactionSendingAborted | WalletProtocolError)
          : new WalletProtocolError({ code: 0, message: messageOf(e) }),
    })
  }

  /** Not connected: 'Wallet is not connected'. The bridge did not take it in time, or failed: 'Disconnect was aborted' (the stored connection is gone all the same). */
  disconnect(): Effect.Effect<void, WalletNotConnectedToDisconnect | DisconnectAborted> {
    return Effect.tryPromise({
      try: async () => {
        if (!this.current) throw new WalletNotConnectedToDisconnect()
        const { connector } = await this.load()
        const timeoutMs = this.options.disconnectTimeoutMs ?? WALLET_DISCONNECT_TIMEOUT_MS
        let timer: ReturnType<typeof setTimeout> | undefined
        try {
          // Tells the wallet over the bridge, and removes the stored connection.
          const telling = connector.disconnect()
          telling.catch(() => undefined)
          await Promise.race([
            telling,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new DisconnectAborted({ reason: `The wallet did not take the disconnect within ${timeoutMs / 1000} s` })), timeoutMs)
            }),
          ])
        } finally {
          clearTimeout(timer)
          this.options.storage.clear?.()
          this.setAccount(null)
        }
      },
      catch: (e) =>
        e instanceof WalletNotConnectedToDisconnect || e instanceof DisconnectAborted ? e : new DisconnectAborted({ reason: messageOf(e) }),
    })
  }

  onAccountChange(listener: (account: WalletAccount | null) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Closes the bridge connection (its event stream), so that a finished command leaves nothing open. */
  close(): void {
    this.connectorRef?.pauseConnection()
  }

  private async forgetPending(): Promise<void> {
    if (this.options.storage.clear) this.options.storage.clear()
    else await this.options.storage.removeItem(TON_CONNECT_CONNECTION_KEY)
  }

  private load() {
    this.loaded ??= (async () => {
      const [sdk, ton] = await Promise.all([import('@tonconnect/sdk'), import('../ton/ton-comment-payload.ts')])
      routeSdkLogs(this.options.sdkLog)
      const connector = new sdk.TonConnect({
        manifestUrl: this.options.manifestUrl,
        storage: this.options.storage,
        walletsListSource: this.options.walletsListSource,
        analytics: { mode: 'off' },
        disableAutoPauseConnection: true,
      })
      this.connectorRef = connector
      this.ton = ton
      connector.onStatusChange(
        (w) => {
          if (w && this.restoreAbandoned && !this.current) return
          this.setAccount(w ? this.accountOf(w) : null)
        },
        () => undefined,
      )
      return { sdk, connector, ton }
    })()
    return this.loaded
  }

  private accountOf(w: SdkWallet): WalletAccount {
    const feature = w.device.features.find(
      (f): f is { name: 'SendTransaction'; maxMessages: number } => typeof f === 'object' && f.name === 'SendTransaction',
    )
    this.maxMsgs = feature?.maxMessages ?? (w.device.features.includes('SendTransaction') ? 4 : 0)
    this.device = w.device
    const friendly = this.ton ? this.ton.friendlyAddress(w.account.address, w.account.chain) : undefined
    const account: WalletAccount = {
      address: w.account.address,
      chain: w.account.chain,
      ...(friendly ? { friendlyAddress: friendly } : {}),
      ...(w.account.publicKey ? { publicKey: w.account.publicKey } : {}),
    }
    if (this.current?.address !== account.address) this.setAccount(account)
    return account
  }

  private setAccount(account: WalletAccount | null): void {
    if (this.current === account) return
    this.current = account
    for (const l of [...this.listeners]) l(account)
  }
}

/** A failed connection as the core's errors: a refusal is a decline, anything else a protocol error. */
const connectErrorFrom = (e: unknown, sdk: Sdk): WalletConnectionDeclined | WalletProtocolError => {
  const mapped = walletErrorFrom(e, sdkErrors(sdk))
  return mapped._tag === 'WalletProtocolError' ? mapped : new WalletConnectionDeclined()
}
