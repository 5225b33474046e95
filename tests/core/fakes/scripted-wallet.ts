import { Duration, Effect } from 'effect'
import {
  DisconnectAborted,
  TransactionNotSent,
  TransactionSendingAborted,
  type TonProof,
  type Wallet,
  type WalletAccount,
  type WalletConnectRequest,
  WalletConnectionDeclined,
  WalletNotConnected,
  WalletNotConnectedToDisconnect,
  WalletProtocolError,
  WalletRestoreFailed,
  type WalletTransaction,
} from '../../../core/index.ts'

export const ACCOUNT: WalletAccount = { address: `0:${'ab'.repeat(32)}`, chain: '-239' }

/** The proof a wallet would sign for `payload` (its content is not checked by the core). */
export const proofOf = (payload: string): TonProof => ({
  timestamp: 1_700_000_000,
  domain: { lengthBytes: 14, value: 'localhost:5173' },
  payload,
  signature: 'c2lnbmF0dXJl',
  state_init: 'te6cckEBAQEAAgAAAEysuc0=',
})

const after = (ms: number) => (ms > 0 ? Effect.sleep(Duration.millis(ms)) : Effect.void)

/** 'fails': unanswered (tried again); 'refused': the wallet or bridge refused the stored connection. */
export type RestoreStep = WalletAccount | null | 'fails' | 'refused'
/**
 * 'rejects': the user declines (TransactionNotSent, declined); 'protocol-error': TON Connect's 300;
 * 'aborted': the adapter gave up waiting for the wallet's answer; 'fails': an unknown wallet error (0)
 * and nothing sent; 'widget-closed': the widget's own 'Transaction was not sent' (not a decline);
 * 'sends-then-fails': the payment goes out (`onSigned`) and the wallet answers an unknown error
 * (ton-connect/sdk#340); 'silent': the wallet never answers (#449).
 */
export type SignOutcome = 'signs' | 'rejects' | 'protocol-error' | 'aborted' | 'fails' | 'widget-closed' | 'sends-then-fails' | 'silent'

/**
 * A wallet whose answers the test scripts. Restore answers are taken in order, the last one repeating.
 * Every transaction asked of it is kept, signed or not. Its widget loads in `loadMs` (on the
 * Effect clock) or fails to load; each restore attempt takes `restoreMs`. Forgetting removes the
 * stored connection and disconnects a restored one, as the real wallets do.
 */
export class ScriptedWallet implements Wallet {
  readonly transactions: WalletTransaction[] = []
  restoreAttempts = 0
  forgotten = 0
  abandoned = 0
  /** 'aborted': the wallet does not take the disconnect in time (the local connection ends all the same). */
  disconnectOutcome: 'disconnects' | 'aborted' = 'disconnects'
  loadMs = 0
  loadOutcome: 'loads' | 'fails' = 'loads'
  restoreMs = 0
  signOutcome: SignOutcome = 'signs'
  /** Called the moment the wallet signs (a test lands the payment on its chain here). */
  onSigned: (tx: WalletTransaction) => void = () => {}
  connectOutcome: 'approves' | 'declines' = 'approves'
  /** Asked for a tonProof, the wallet signs it (like real wallets) or answers without one. */
  proofOutcome: 'signs' | 'omits' = 'signs'
  /** What each connect asked for. */
  readonly connectRequests: Array<WalletConnectRequest | undefined> = []
  private restoreScript: RestoreStep[] = [null]
  private listeners = new Set<(a: WalletAccount | null) => void>()

  constructor(
    private connected: WalletAccount | null = ACCOUNT,
    private maxMessagesValue = 4,
  ) {}

  scriptRestore(...steps: RestoreStep[]): void {
    this.restoreScript = steps
  }

  setMaxMessages(n: number): void {
    this.maxMessagesValue = n
  }

  account(): WalletAccount | null {
    return this.connected
  }

  maxMessages(): number {
    return this.maxMessagesValue
  }

  connect(request?: WalletConnectRequest): Effect.Effect<WalletAccount, WalletConnectionDeclined | WalletProtocolError> {
    return Effect.suspend(() => {
      this.connectRequests.push(request)
      if (this.connectOutcome === 'declines') return Effect.fail(new WalletConnectionDeclined())
      this.setAccount(ACCOUNT)
      const payload = request?.tonProofPayload
      return Effect.succeed(payload && this.proofOutcome === 'signs' ? { ...ACCOUNT, publicKey: 'cd'.repeat(32), proof: proofOf(payload) } : ACCOUNT)
    })
  }

  ready(): Effect.Effect<void, WalletRestoreFailed> {
    return Effect.suspend(() =>
      after(this.loadMs).pipe(
        Effect.andThen(() =>
          this.loadOutcome === 'fails' ? Effect.fail(new WalletRestoreFailed({ reason: 'widget script failed to load' })) : Effect.void,
        ),
      ),
    )
  }

  restore(): Effect.Effect<WalletAccount | null, WalletRestoreFailed> {
    return Effect.suspend(() => {
      const step = this.restoreScript[Math.min(this.restoreAttempts, this.restoreScript.length - 1)] ?? null
      this.restoreAttempts++
      return after(this.restoreMs).pipe(
        Effect.andThen((): Effect.Effect<WalletAccount | null, WalletRestoreFailed> => {
          if (step === 'fails') return Effect.fail(new WalletRestoreFailed({ reason: 'bridge unreachable' }))
          if (step === 'refused') return Effect.fail(new WalletRestoreFailed({ reason: 'the wallet ended the session', definite: true }))
          if (step) this.setAccount(step)
          return Effect.succeed(step)
        }),
      )
    })
  }

  abandonRestore(): void {
    this.abandoned++
  }

  forgetStoredConnection(): void {
    this.forgotten++
    this.restoreScript = [null]
    if (this.connected) this.setAccount(null)
  }

  sendTransaction(
    tx: WalletTransaction,
  ): Effect.Effect<{ readonly boc: string }, WalletNotConnected | TransactionNotSent | TransactionSendingAborted | WalletProtocolError> {
    return Effect.suspend((): Effect.Effect<{ readonly boc: string }, WalletNotConnected | TransactionNotSent | TransactionSendingAborted | WalletProtocolError> => {
      if (!this.connected) return Effect.fail(new WalletNotConnected())
      this.transactions.push(tx)
      if (this.signOutcome === 'rejects') return Effect.fail(new TransactionNotSent({ reason: 'user rejected', declined: true }))
      if (this.signOutcome === 'fails') return Effect.fail(new WalletProtocolError({ code: 0, message: 'Unknown error' }))
      if (this.signOutcome === 'widget-closed') return Effect.fail(new TransactionNotSent({ reason: 'Transaction was not sent' }))
      if (this.signOutcome === 'silent') return Effect.never
      if (this.signOutcome === 'sends-then-fails') {
        this.onSigned(tx)
        return Effect.fail(new WalletProtocolError({ code: 0, message: 'Unknown error' }))
      }
      if (this.signOutcome === 'protocol-error') return Effect.fail(new WalletProtocolError({ code: 300 }))
      if (this.signOutcome === 'aborted') return Effect.fail(new TransactionSendingAborted({ reason: 'the wallet did not answer in time' }))
      this.onSigned(tx)
      return Effect.succeed({ boc: 'te6cckEBAQEAAgAAAEysuc0=' })
    })
  }

  disconnect(): Effect.Effect<void, WalletNotConnectedToDisconnect | DisconnectAborted> {
    return Effect.suspend((): Effect.Effect<void, WalletNotConnectedToDisconnect | DisconnectAborted> => {
      if (!this.connected) return Effect.fail(new WalletNotConnectedToDisconnect())
      this.setAccount(null)
      if (this.disconnectOutcome === 'aborted') return Effect.fail(new DisconnectAborted({ reason: 'the wallet did not answer' }))
      return Effect.void
    })
  }

  onAccountChange(listener: (account: WalletAccount | null) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private setAccount(a: WalletAccount | null): void {
    this.connected = a
    for (const l of this.listeners) l(a)
  }
}
