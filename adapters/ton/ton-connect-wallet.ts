import { Duration, Effect } from 'effect'
import type { ConnectedWallet, ITonConnect, TonConnectUI, TonConnectUiCreateOptions } from '@tonconnect/ui'
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
import { WALLET_NOTIFICATIONS, WALLET_RETURN_STRATEGY } from '../../core/domain/constants.ts'
import type { TonProof } from '../../core/domain/entities/wallet.ts'
import type { Wallet, WalletAccount, WalletConnectRequest, WalletTransaction } from '../../core/ports/wallet.port.ts'

type SdkErrors = Pick<
  typeof import('@tonconnect/ui'),
  | 'UserRejectsError'
  | 'TonConnectUIError'
  | 'WalletNotConnectedError'
  | 'BadRequestError'
  | 'UnknownAppError'
  | 'WalletNotSupportFeatureError'
  | 'WalletMissingRequiredFeaturesError'
>

/**
 * Maps an SDK failure to the core's wallet errors and the protocol codes of spec §8, so that the
 * SDK's classes never reach the core. The manifest errors (codes 2, 3) are not exported by the
 * SDK, so they are told by their message.
 */
export const walletErrorFrom = (
  e: unknown,
  sdk: SdkErrors,
): TransactionNotSent | TransactionSendingAborted | WalletNotConnected | WalletProtocolError => {
  const message = e instanceof Error ? e.message : String(e)
  const protocol = (code: number) => new WalletProtocolError({ code, message })
  // The SDK's own give-up (its request aborted), told by its message as the SDK exports no class for it.
  if (/Transaction sending was aborted/.test(message)) return new TransactionSendingAborted({ reason: message })
  // The user's refusal in the wallet (300) is told apart from the widget's own 'Transaction was not sent'
  // (its modal closed, its request aborted), after which the payment may still be on the chain.
  if (e instanceof sdk.UserRejectsError) return new TransactionNotSent({ reason: message, declined: true })
  if (e instanceof sdk.TonConnectUIError) return new TransactionNotSent({ reason: message })
  if (e instanceof sdk.WalletNotConnectedError) return new WalletNotConnected()
  if (e instanceof sdk.BadRequestError) return protocol(1)
  if (e instanceof sdk.UnknownAppError) return protocol(100)
  if (e instanceof sdk.WalletNotSupportFeatureError || e instanceof sdk.WalletMissingRequiredFeaturesError) return protocol(400)
  if (/manifest/i.test(message)) return protocol(/content/i.test(message) ? 3 : 2)
  return protocol(0)
}

/**
 * A connect's failure: the wallet's refusal is the user declining ('Connection declined'); any other
 * keeps its protocol code of spec §8 (bad request 1, manifest 2 and 3, unknown app 100, method not
 * supported 400), 0 only when it names none.
 */
export const connectErrorFrom = (e: unknown, sdk: SdkErrors): WalletConnectionDeclined | WalletProtocolError => {
  if (e instanceof WalletConnectionDeclined) return e
  if (e instanceof sdk.UserRejectsError) return new WalletConnectionDeclined()
  const mapped = walletErrorFrom(e, sdk)
  return mapped._tag === 'WalletProtocolError' ? mapped : new WalletProtocolError({ code: 0, message: e instanceof Error ? e.message : String(e) })
}

const isCoreError = (e: unknown): e is { readonly _tag: string } =>
  typeof e === 'object' && e !== null && typeof (e as { _tag?: unknown })._tag === 'string'

export interface TonConnectWalletOptions {
  /** Builds the widget; imported lazily so that it adds nothing to the first paint. */
  readonly create: () => Promise<TonConnectUI>
  /** Loaded lazily with the widget: comment payloads and friendly addresses need @ton/core. */
  readonly tonCore: () => Promise<typeof import('./ton-comment-payload.ts')>
  /** The SDK's error classes, loaded with the widget. */
  readonly sdkErrors?: () => Promise<SdkErrors>
  /**
   * What connection is stored for the widget to restore (in the browser: the SDK's
   * `TON_CONNECT_CONNECTION_KEY` in localStorage, `storedConnectionIn`): 'established' (the wallet
   * answered a connect), 'pending' (a connect not yet answered) or 'none'. With none, restoring
   * answers null without loading the widget, which then loads on the first connect or purchase.
   * It also tells a restore the wallet refused (the SDK removed the connection) from one that went
   * unanswered (still stored). Default: assume one is established, and tell no failure apart.
   */
  readonly storedConnection?: () => StoredConnection
  /** How long past a transaction's validUntil the wallet's answer is waited for. Default WALLET_ANSWER_GRACE_MS. */
  readonly answerGraceMs?: number
  /** How long a disconnect waits for the wallet's bridge to take it. Default WALLET_DISCONNECT_TIMEOUT_MS. */
  readonly disconnectTimeoutMs?: number
  /** How long restoring waits for the widget to download before it gives up. Default WIDGET_LOAD_TIMEOUT_MS. */
  readonly loadTimeoutMs?: number
}

/**
 * How long restoring waits for the widget (≈ 120 KiB gz) to download. The spec sets no figure; 30 s
 * is past any working mobile connection, and short enough that a stalled download does not keep the
 * connect button busy.
 */
export const WIDGET_LOAD_TIMEOUT_MS = 30_000

/** Where @tonconnect/sdk keeps the connection it restores (its BridgeConnectionStorage key). */
export const TON_CONNECT_CONNECTION_KEY = 'ton-connect-storage_bridge-connection'

export type StoredConnection = 'established' | 'pending' | 'none'

/** What the SDK stored under TON_CONNECT_CONNECTION_KEY: an answered connect carries its `connectEvent`. */
export const storedConnectionIn = (stored: string | null): StoredConnection => {
  if (stored === null) return 'none'
  try {
    return (JSON.parse(stored) as { connectEvent?: unknown }).connectEvent ? 'established' : 'pending'
  } catch {
    return 'pending'
  }
}

/**
 * How long past a transaction's validUntil the wallet's answer is waited for before the adapter
 * gives up ('Transaction sending was aborted'): the wallet can no longer sign it, and a late answer
 * still gets to the chain within this.
 */
export const WALLET_ANSWER_GRACE_MS = 15_000

/**
 * How long a disconnect waits for the wallet's bridge to take it before the adapter gives up
 * ('Disconnect was aborted'). The spec sets no figure; the SDK drops the local connection first, so
 * only telling the wallet is given up.
 */
export const WALLET_DISCONNECT_TIMEOUT_MS = 10_000

/** Rejects with `error()` unless `work` settles within `ms`. */
const within = <A>(work: Promise<A>, ms: number, error: () => unknown): Promise<A> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/** TON Connect's id of the TON mainnet, the network a wallet must connect on unless configured. */
export const TON_MAINNET = '-239'

/**
 * The widget's options: the spec's §9 constants are TON Connect UI's own defaults (return strategy
 * 'back'); `skipRedirectToWallet` is left out, as the SDK no longer reads it. `twaReturnUrl` is the
 * mini app's t.me direct link: a wallet that is itself a mini app sends the user back there, which
 * TON Connect needs when app and wallet both run inside Telegram.
 */
export const tonConnectUiOptions = (o: {
  manifestUrl: string
  language: 'en' | 'ru'
  twaReturnUrl?: `${string}://${string}`
  /** A connector built with a local wallets list, so that no request leaves the machine. */
  connector?: ITonConnect
  includeWallets?: NonNullable<NonNullable<TonConnectUiCreateOptions['walletsListConfiguration']>['includeWallets']>
}): TonConnectUiCreateOptions => ({
  manifestUrl: o.manifestUrl,
  language: o.language,
  uiPreferences: { theme: 'SYSTEM' as never },
  actionsConfiguration: {
    returnStrategy: WALLET_RETURN_STRATEGY,
    ...(o.twaReturnUrl ? { twaReturnUrl: o.twaReturnUrl } : {}),
    modals: ['before'],
    notifications: [...WALLET_NOTIFICATIONS],
  },
  analytics: { mode: 'off' } as never,
  ...(o.includeWallets ? { walletsListConfiguration: { includeWallets: o.includeWallets } } : {}),
  ...(o.connector ? { connector: o.connector } : {}),
})

/**
 * Builds the widget and pins the network before anything connects: the SDK then asks the wallet for
 * an address on it and refuses a wallet that connects on another chain. (The widget starts restoring
 * when built, but asynchronously, so nothing is connected yet.)
 */
export const pinnedTonConnectUi = <U extends Pick<TonConnectUI, 'setConnectionNetwork'>>(
  build: (options: TonConnectUiCreateOptions) => U,
  options: TonConnectUiCreateOptions,
  network: string = TON_MAINNET,
): U => {
  const ui = build(options)
  ui.setConnectionNetwork(network)
  return ui
}

/**
 * The wallet's signed tonProof from a connect reply (`connectItems.tonProof` with a `proof`; a
 * `ton_proof` error item or a restored connection has none), with the StateInit the backend needs.
 */
export const proofOf = (w: Pick<ConnectedWallet, 'account' | 'connectItems'>): TonProof | undefined => {
  const item = w.connectItems?.tonProof
  if (!item || !('proof' in item) || !w.account.walletStateInit) return undefined
  const { timestamp, domain, payload, signature } = item.proof
  return {
    timestamp,
    domain: { lengthBytes: domain.lengthBytes, value: domain.value },
    payload,
    signature,
    state_init: w.account.walletStateInit,
  }
}

/** The user's wallet through TON Connect UI (the widget of spec §2), loaded on first use. */
export class TonConnectWallet implements Wallet {
  private ui: Promise<TonConnectUI> | null = null
  private current: WalletAccount | null = null
  private maxMsgs = 1
  /**
   * Whose connection the widget may report. 'restoring': the stored one (or an unfinished connect
   * the SDK completes), shown. 'given-up': restoring timed out (spec §4), but the widget goes on
   * restoring after we stop waiting, so what it restores now is disconnected, never shown. 'user':
   * the user connected; nothing of restoring may drop that. 'abandoned': restoring gave up after
   * 12 s unanswered (spec §4); what restores later is paused, kept stored for the next start, and
   * adopted if the user connects.
   */
  private restoreState: 'restoring' | 'given-up' | 'abandoned' | 'user' = 'restoring'
  /** While the connect modal is open, a connection the widget reports is the user's. */
  private connecting = false
  private readonly listeners = new Set<(a: WalletAccount | null) => void>()

  /** What connection was stored when the app started: the only one restoring may bring back. */
  private readonly storedAtStartKind: StoredConnection

  constructor(private readonly options: TonConnectWalletOptions) {
    this.storedAtStartKind = options.storedConnection?.() ?? 'established'
  }

  private get storedAtStart(): boolean {
    return this.storedAtStartKind !== 'none'
  }

  account(): WalletAccount | null {
    return this.current
  }

  maxMessages(): number {
    return this.maxMsgs
  }

  connect(request?: WalletConnectRequest): Effect.Effect<WalletAccount, WalletConnectionDeclined | WalletProtocolError> {
    return Effect.tryPromise({
      try: async () => {
        const ui = await this.widget()
        if (this.current) return this.current
        if (this.restoreState === 'abandoned' && ui.connected && ui.wallet) {
          // The stored connection restored after restoring gave up: the user asked for it, so it is theirs.
          this.restoreState = 'user'
          await ui.connector.unPauseConnection()
          return await this.accountOf(ui.wallet as ConnectedWallet)
        }
        this.connecting = true
        try {
          const account = await this.connectOnce(ui, request)
          this.restoreState = 'user'
          return account
        } catch (e) {
          throw connectErrorFrom(e, await (this.options.sdkErrors ?? (() => import('@tonconnect/ui')))())
        } finally {
          this.connecting = false
        }
      },
      catch: (e) =>
        e instanceof WalletConnectionDeclined || e instanceof WalletProtocolError ? e : new WalletProtocolError({ code: 0, message: String(e) }),
    })
  }

  /**
   * Loads the widget and @ton/core (reading an account needs it), so that neither download counts
   * against restoring. A download that stalls is given up after `loadTimeoutMs` (the restore then
   * ends, reported); the download itself goes on, and the next connect waits for it.
   */
  ready(): Effect.Effect<void, WalletRestoreFailed> {
    if (!this.storedAtStart) return Effect.void // nothing to restore: nothing to load yet
    const timeoutMs = this.options.loadTimeoutMs ?? WIDGET_LOAD_TIMEOUT_MS
    return Effect.tryPromise({
      try: async () => {
        await Promise.all([this.widget(), this.options.tonCore()])
      },
      catch: (e) => new WalletRestoreFailed({ reason: `The wallet widget did not load: ${e instanceof Error ? e.message : String(e)}` }),
    }).pipe(
      Effect.timeoutOrElse({
        duration: Duration.millis(timeoutMs),
        orElse: () => Effect.fail(new WalletRestoreFailed({ reason: `The wallet widget did not load within ${timeoutMs / 1000} s` })),
      }),
    )
  }

  /**
   * Waits for the widget's own restore, which it starts when it is created. Ended without a
   * connection, it answers null, and a connection that completes later is still shown: it may be a
   * connect the user approved in the wallet app while Telegram reloaded the mini app (the SDK keeps
   * that unfinished connection and completes it after the restart). Only giving up on restoring
   * after spec §4's 12 s (`forgetStoredConnection`) drops what comes later.
   */
  restore(): Effect.Effect<WalletAccount | null, WalletRestoreFailed> {
    if (!this.storedAtStart) return Effect.succeed(null)
    return Effect.tryPromise({
      try: async () => {
        const ui = await this.widget()
        await ui.connectionRestored
        if (this.restoreState === 'given-up' || this.restoreState === 'abandoned') return null
        if (ui.connected && ui.wallet) return this.accountOf(ui.wallet as ConnectedWallet)
        const now = this.options.storedConnection?.()
        if (this.storedAtStartKind !== 'established' || now === undefined || now === 'pending') return null
        // Still stored: the wallet never answered (the bridge was not reached), and restoring tries again.
        if (now === 'established') throw new WalletRestoreFailed({ reason: 'The wallet did not answer' })
        // Gone: the SDK removed it, as it does when the wallet ended the session or the stored connection is unreadable.
        throw new WalletRestoreFailed({ reason: 'The wallet refused the stored connection', definite: true })
      },
      catch: (e) => (e instanceof WalletRestoreFailed ? e : new WalletRestoreFailed({ reason: e instanceof Error ? e.message : String(e) })),
    })
  }

  /** Stops showing what restores from now on; it is paused (not disconnected), so it stays stored for the next start. */
  abandonRestore(): void {
    if (this.restoreState !== 'restoring') return
    this.restoreState = 'abandoned'
    void this.widget()
      .then((ui) => this.pauseRestored(ui))
      .catch(() => undefined)
  }

  /**
   * The widget has no call to drop a stored connection it has not restored, and its restore goes
   * on after we give up; so a connection restored now or later is disconnected, which tells the
   * wallet and removes what the widget stored.
   */
  forgetStoredConnection(): void {
    if (this.restoreState === 'user' || this.restoreState === 'given-up') return
    this.restoreState = 'given-up'
    void this.widget().then((ui) => this.dropRestored(ui)).catch(() => undefined)
  }

  /** Gives up ('Transaction sending was aborted') once the transaction is past its validUntil and the grace. */
  sendTransaction(tx: WalletTransaction) {
    return Effect.tryPromise({
      try: async () => {
        const [ui, ton] = await Promise.all([this.widget(), this.options.tonCore()])
        if (!ui.connected) throw new WalletNotConnected()
        const waitMs = Math.max(0, tx.validUntil * 1000 - Date.now()) + (this.options.answerGraceMs ?? WALLET_ANSWER_GRACE_MS)
        try {
          const sending = ui.sendTransaction({
            validUntil: tx.validUntil,
            messages: tx.messages.map((m) => ({
              address: ton.transferAddress(m.address),
              amount: m.amount,
              ...(m.comment ? { payload: ton.commentPayload(m.comment) } : {}),
            })),
          })
          sending.catch(() => undefined)
          const result = await within(sending, waitMs, () => new TransactionSendingAborted({ reason: 'The wallet did not answer in time' }))
          return { boc: result.boc }
        } catch (e) {
          if (isCoreError(e)) throw e
          throw walletErrorFrom(e, await (this.options.sdkErrors ?? (() => import('@tonconnect/ui')))())
        }
      },
      catch: (e) =>
        isCoreError(e)
          ? (e as TransactionNotSent | TransactionSendingAborted | WalletNotConnected | WalletProtocolError)
          : new WalletProtocolError({ code: 0 }),
    })
  }

  /** Not connected: 'Wallet is not connected'. A bridge that does not take it in time, or fails: 'Disconnect was aborted'. */
  disconnect(): Effect.Effect<void, WalletNotConnectedToDisconnect | DisconnectAborted> {
    return Effect.tryPromise({
      try: async () => {
        if (!this.current) throw new WalletNotConnectedToDisconnect()
        const ui = await this.widget()
        const timeoutMs = this.options.disconnectTimeoutMs ?? WALLET_DISCONNECT_TIMEOUT_MS
        await within(ui.disconnect(), timeoutMs, () => new DisconnectAborted({ reason: `The wallet did not take the disconnect within ${timeoutMs / 1000} s` }))
        this.setAccount(null)
      },
      catch: (e) =>
        e instanceof WalletNotConnectedToDisconnect || e instanceof DisconnectAborted
          ? e
          : new DisconnectAborted({ reason: e instanceof Error ? e.message : String(e) }),
    })
  }

  onAccountChange(listener: (account: WalletAccount | null) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private widget(): Promise<TonConnectUI> {
    this.ui ??= this.options.create().then(
      (ui) => {
        ui.onStatusChange((w) => {
          if (!w) this.setAccount(null)
          else if (this.restoreState === 'given-up' && !this.connecting) void this.dropRestored(ui).catch(() => undefined)
          else if (this.restoreState === 'abandoned' && !this.connecting) this.pauseRestored(ui)
          else this.accountOf(w).catch(() => this.setAccount(null))
        })
        return ui
      },
      (e: unknown) => {
        // A failed load (a flaky network) is not remembered: the next action tries again.
        this.ui = null
        throw e
      },
    )
    return this.ui
  }

  /** Opens the modal and waits for a wallet, or for the user to close it without one. */
  private async connectOnce(ui: TonConnectUI, request?: WalletConnectRequest): Promise<WalletAccount> {
    // Asks the wallet for a tonProof of the backend's payload (or for none, clearing an earlier one).
    const payload = request?.tonProofPayload
    ui.setConnectRequestParameters(payload ? { state: 'ready', value: { tonProof: payload } } : null)
    const connected = new Promise<WalletAccount | null>((resolve, reject) => {
      const offStatus = ui.onStatusChange((w) => {
        if (!w) return
        offStatus()
        offModal()
        this.accountOf(w).then(resolve, reject)
      })
      const offModal = ui.onModalStateChange((state) => {
        if (state.status === 'closed' && state.closeReason !== 'wallet-selected') {
          offStatus()
          offModal()
          resolve(this.current)
        }
      })
    })
    await ui.openModal()
    const account = await connected
    if (!account) throw new WalletConnectionDeclined()
    return account
  }

  /** Closes the bridge of what the widget restored, without telling the wallet or removing what it stored. */
  private pauseRestored(ui: TonConnectUI): void {
    if (ui.connected && !this.connecting && !this.current) ui.connector.pauseConnection()
  }

  /** Disconnects what the widget restored: the wallet is told, and the widget removes what it stored. */
  private async dropRestored(ui: TonConnectUI): Promise<void> {
    if (ui.connected && !this.connecting) await ui.disconnect()
  }

  private async accountOf(w: ConnectedWallet): Promise<WalletAccount> {
    const ton = await this.options.tonCore()
    const feature = w.device.features.find(
      (f): f is { name: 'SendTransaction'; maxMessages: number } => typeof f === 'object' && f.name === 'SendTransaction',
    )
    this.maxMsgs = feature?.maxMessages ?? 1
    const proof = proofOf(w)
    const account: WalletAccount = {
      address: w.account.address,
      chain: w.account.chain,
      friendlyAddress: ton.friendlyAddress(w.account.address, w.account.chain),
      ...(w.account.publicKey ? { publicKey: w.account.publicKey } : {}),
      ...(w.account.walletStateInit ? { walletStateInit: w.account.walletStateInit } : {}),
      ...(proof ? { proof } : {}),
    }
    this.setAccount(account)
    return account
  }

  private setAccount(account: WalletAccount | null): void {
    this.current = account
    for (const l of this.listeners) l(account)
  }
}
