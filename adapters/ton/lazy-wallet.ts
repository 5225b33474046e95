import { Effect } from 'effect'
import {
  DisconnectAborted,
  WalletNotConnectedToDisconnect,
  WalletProtocolError,
  WalletRestoreFailed,
} from '../../core/errors.ts'
import type { Wallet, WalletAccount, WalletConnectRequest, WalletTransaction } from '../../core/ports/wallet.port.ts'

export interface LazyWalletOptions {
  /** Loads the wallet adapter (its own chunk). A failed load is not remembered: the next call tries again. */
  readonly load: () => Promise<Wallet>
  /** Resolves when the adapter may start loading unasked (the browser: the first screen has painted). */
  readonly gate?: () => Promise<void>
}

const reasonOf = (e: unknown) => `The wallet adapter did not load: ${e instanceof Error ? e.message : String(e)}`

/**
 * The wallet port before its adapter has loaded: the TON Connect adapter (adapters/ton/ton-connect-wallet.ts)
 * is not in the boot's chunks, as nothing the first screen paints uses it. This loads it once `gate`
 * opens, or on the first call that needs it, and forwards every call to it once it is there: no
 * account (null) until then, the adapter's account changes to this one's listeners, and the two
 * calls that return nothing (`abandonRestore`, `forgetStoredConnection`) kept and made, in order,
 * once it has loaded. A load that fails fails the call as the adapter fails when its widget does not
 * load (restoring: not definite, so restoring tries again).
 */
export class LazyWallet implements Wallet {
  private wallet: Wallet | null = null
  private loading: Promise<Wallet> | null = null
  private readonly pending: Array<(w: Wallet) => void> = []
  private readonly listeners = new Set<(account: WalletAccount | null) => void>()

  constructor(private readonly options: LazyWalletOptions) {
    options
      .gate?.()
      .then(() => this.loaded())
      .catch(() => undefined)
  }

  account(): WalletAccount | null {
    return this.wallet?.account() ?? null
  }

  maxMessages(): number {
    return this.wallet?.maxMessages() ?? 1
  }

  connect(request?: WalletConnectRequest) {
    return this.then(
      (w) => w.connect(request),
      (e) => new WalletProtocolError({ code: 0, message: reasonOf(e) }),
    )
  }

  ready() {
    return this.then(
      (w) => w.ready(),
      (e) => new WalletRestoreFailed({ reason: reasonOf(e) }),
    )
  }

  restore() {
    return this.then(
      (w) => w.restore(),
      (e) => new WalletRestoreFailed({ reason: reasonOf(e) }),
    )
  }

  abandonRestore(): void {
    this.whenLoaded((w) => w.abandonRestore())
  }

  forgetStoredConnection(): void {
    this.whenLoaded((w) => w.forgetStoredConnection())
  }

  sendTransaction(tx: WalletTransaction) {
    return this.then(
      (w) => w.sendTransaction(tx),
      (e) => new WalletProtocolError({ code: 0, message: reasonOf(e) }),
    )
  }

  disconnect() {
    // Nothing can be connected before the adapter has loaded.
    if (!this.wallet) return Effect.fail(new WalletNotConnectedToDisconnect())
    return this.then(
      (w) => w.disconnect(),
      (e) => new DisconnectAborted({ reason: reasonOf(e) }),
    )
  }

  onAccountChange(listener: (account: WalletAccount | null) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The adapter's effect, once it has loaded; a failed load fails with `failed(error)`. */
  private then<A, E, F>(use: (w: Wallet) => Effect.Effect<A, E>, failed: (e: unknown) => F): Effect.Effect<A, E | F> {
    return Effect.tryPromise({ try: () => this.loaded(), catch: failed }).pipe(Effect.flatMap(use))
  }

  /** A call to make on the adapter: now if it has loaded, else once it has (and never if it never loads). */
  private whenLoaded(call: (w: Wallet) => void): void {
    if (this.wallet) call(this.wallet)
    else this.pending.push(call)
  }

  private loaded(): Promise<Wallet> {
    if (this.wallet) return Promise.resolve(this.wallet)
    this.loading ??= this.options.load().then(
      (w) => {
        this.wallet = w
        w.onAccountChange((account) => {
          for (const l of this.listeners) l(account)
        })
        for (const call of this.pending.splice(0)) call(w)
        return w
      },
      (e: unknown) => {
        this.loading = null
        throw e
      },
    )
    return this.loading
  }
}
