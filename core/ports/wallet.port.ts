import type { Effect } from 'effect'
import type { TonProof } from '../domain/entities/wallet.ts'
import type {
  DisconnectAborted,
  TransactionNotSent,
  TransactionSendingAborted,
  WalletConnectionDeclined,
  WalletNotConnected,
  WalletNotConnectedToDisconnect,
  WalletProtocolError,
  WalletRestoreFailed,
} from '../errors.ts'

export interface WalletAccount {
  /** Raw form, '0:…'. */
  readonly address: string
  /** The user-facing (friendly, non-bounceable) form, when the adapter knows it. */
  readonly friendlyAddress?: string
  readonly chain: string
  readonly publicKey?: string
  /** The wallet contract's StateInit (base64 BOC), as the wallet reported it. */
  readonly walletStateInit?: string
  /** The wallet's tonProof, when the connection asked for one and the wallet signed it. */
  readonly proof?: TonProof
}

/** What a connection asks of the wallet besides its address. */
export interface WalletConnectRequest {
  /** A tonProof payload (from the backend) for the wallet to sign. */
  readonly tonProofPayload?: string
}

export interface WalletMessage {
  readonly address: string
  /** Nano-units as a decimal string. */
  readonly amount: string
  /** A text comment; the adapter encodes it as the message payload. */
  readonly comment?: string
}

export interface WalletTransaction {
  /** Unix seconds. */
  readonly validUntil: number
  readonly messages: ReadonlyArray<WalletMessage>
}

/** The user's TON wallet, reached through a wallet connection (TON Connect). */
export interface Wallet {
  account(): WalletAccount | null
  /** How many messages the connected device can send in one transaction. */
  maxMessages(): number
  /** Opens the wallet's connection; with a `tonProofPayload` the wallet is asked to sign a tonProof of it. */
  connect(request?: WalletConnectRequest): Effect.Effect<WalletAccount, WalletConnectionDeclined | WalletProtocolError>
  /**
   * Resolves once whatever restoring needs is loaded (the TON Connect widget loads after the first
   * paint), so that restoring's 12 s (spec §4) measure the restore and not a slow download. Fails
   * (never `definite`) when it cannot be loaded; the caller tries again.
   */
  ready(): Effect.Effect<void, WalletRestoreFailed>
  /**
   * Restores a stored connection once; null when there is none to restore. A failed attempt removes
   * nothing: unanswered, the caller retries; `definite` (the wallet or bridge refused it), the caller
   * forgets it.
   */
  restore(): Effect.Effect<WalletAccount | null, WalletRestoreFailed>
  /**
   * Forgets the stored connection (after a definite failure, spec §4): one restored already, or one
   * that restores later, is disconnected and never reported. A later connect() is kept.
   */
  forgetStoredConnection(): void
  /**
   * Stops restoring for this run (abandoned after 12 s, spec §4) and keeps the stored connection for
   * the next start: one that restores later is not reported this run, unless the user connects.
   */
  abandonRestore(): void
  /** Fails with TransactionSendingAborted when the adapter gives up waiting for the wallet's answer. */
  sendTransaction(
    tx: WalletTransaction,
  ): Effect.Effect<{ readonly boc: string }, WalletNotConnected | TransactionNotSent | TransactionSendingAborted | WalletProtocolError>
  /** Not connected: WalletNotConnectedToDisconnect; the wallet did not take the disconnect in time: DisconnectAborted. */
  disconnect(): Effect.Effect<void, WalletNotConnectedToDisconnect | DisconnectAborted>
  onAccountChange(listener: (account: WalletAccount | null) => void): () => void
}
