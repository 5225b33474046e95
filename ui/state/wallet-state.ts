import type { Effect } from 'effect'
import { makeAutoObservable, runInAction } from 'mobx'
import {
  type ApiError,
  type AppError,
  type Feedback,
  reportUnlessReported,
  shortAddress,
  type WalletAccount,
  type WalletBoundElsewhere,
  type WalletConnectionDeclined,
  type WalletNotConnectedToDisconnect,
  type WalletNotVerified,
  type WalletProtocolError,
  type WalletRestoreFailed,
} from '../../core/index.ts'
import { runResult } from './run-effect.ts'

export interface WalletUseCases {
  readonly restoreWallet: () => Effect.Effect<WalletAccount | null, WalletRestoreFailed>
  readonly connectWallet: () => Effect.Effect<
    WalletAccount,
    WalletConnectionDeclined | WalletProtocolError | WalletBoundElsewhere | WalletNotVerified | ApiError
  >
  readonly disconnectWallet: () => Effect.Effect<void, WalletNotConnectedToDisconnect>
  readonly onAccountChange: (listener: (account: WalletAccount | null) => void) => () => void
}

/** The connected TON wallet, shown as its first 4 and last 4 characters (spec §9). */
export class WalletState {
  account: WalletAccount | null = null
  isConnecting = false
  isRestoring = false

  constructor(
    private readonly uc: WalletUseCases,
    private readonly feedback: Feedback,
  ) {
    makeAutoObservable<this, 'uc' | 'feedback'>(this, { uc: false, feedback: false })
    uc.onAccountChange((account) => runInAction(() => (this.account = account)))
  }

  /** A wallet counts as connected once connecting is over: until the backend bound it, nothing may be paid from it. */
  get isConnected(): boolean {
    return this.account !== null && !this.isConnecting
  }

  get shortAddress(): string | null {
    return this.account ? shortAddress(this.account.friendlyAddress ?? this.account.address) : null
  }

  /** A wallet widget that did not load is told ('Provider is not restored'); connecting loads it again. */
  async restore(): Promise<void> {
    this.isRestoring = true
    const r = await runResult(this.uc.restoreWallet())
    runInAction(() => {
      this.isRestoring = false
      if (r._tag === 'Failure') this.report(r.failure)
      else if (r.success) this.account = r.success
    })
  }

  async connect(): Promise<boolean> {
    if (this.isConnecting) return false
    this.isConnecting = true
    const r = await runResult(this.uc.connectWallet())
    runInAction(() => {
      this.isConnecting = false
      if (r._tag === 'Success') this.account = r.success
      else {
        // Not connected: declined, or connected and then disconnected because the backend would not bind it.
        this.account = null
        this.report(r.failure)
      }
    })
    return r._tag === 'Success'
  }

  async disconnect(): Promise<boolean> {
    const r = await runResult(this.uc.disconnectWallet())
    runInAction(() => {
      if (r._tag === 'Success') this.account = null
      else this.report(r.failure)
    })
    return r._tag === 'Success'
  }

  private report(e: AppError): void {
    reportUnlessReported(this.feedback)(e)
  }
}
