import { makeAutoObservable, runInAction } from 'mobx'
import { shortAddress, type UseCases, type WalletAccount } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'

/** What the wallet view model calls. */
export type WalletUseCases = Pick<UseCases, 'restoreWallet' | 'connectWallet' | 'disconnectWallet' | 'onAccountChange'>

/** The connected TON wallet, shown as its first 4 and last 4 characters (spec §9). */
export class WalletState {
  account: WalletAccount | null = null
  isConnecting = false
  isRestoring = false

  constructor(private readonly uc: WalletUseCases) {
    makeAutoObservable<this, 'uc'>(this, { uc: false })
    uc.onAccountChange((account) => runInAction(() => (this.account = account)))
  }

  /** A wallet counts as connected once connecting is over: until the backend bound it, nothing may be paid from it. */
  get isConnected(): boolean {
    return this.account !== null && !this.isConnecting
  }

  get shortAddress(): string | null {
    return this.account ? shortAddress(this.account.friendlyAddress ?? this.account.address) : null
  }

  /** Restores a stored connection; a failure is told (spec §8: 'Provider is not restored', 'Connection restoring was aborted'), and connecting loads the widget again. */
  async restore(): Promise<void> {
    this.isRestoring = true
    const r = await runResult(this.uc.restoreWallet())
    runInAction(() => {
      this.isRestoring = false
      if (r._tag === 'Success' && r.success) this.account = r.success
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
      }
    })
    return r._tag === 'Success'
  }

  async disconnect(): Promise<boolean> {
    const r = await runResult(this.uc.disconnectWallet())
    runInAction(() => {
      if (r._tag === 'Success') this.account = null
    })
    return r._tag === 'Success'
  }


}
