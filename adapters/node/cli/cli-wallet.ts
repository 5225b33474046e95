import { Effect } from 'effect'
import {
  type ChainReader,
  NetworkError,
  type Wallet,
  type WalletAccount,
  WalletConnectionDeclined,
  WalletNotConnected,
  WalletNotConnectedToDisconnect,
} from '../../../core/index.ts'

/**
 * The wallet of a terminal with no wallet connection. A terminal cannot show a TON Connect QR
 * code and wait for a phone, so there is no account: `axiom bond` creates the pending bond and
 * prints the payment to make (address, amount, comment, deadline) for any wallet to send.
 * A dev wallet that pays against a local TON stack would implement this same port.
 */
export class CliWallet implements Wallet {
  account(): WalletAccount | null {
    return null
  }
  maxMessages(): number {
    return 0
  }
  connect() {
    return Effect.fail(new WalletConnectionDeclined())
  }
  restore() {
    return Effect.succeed(null)
  }
  forgetStoredConnection(): void {}
  sendTransaction() {
    return Effect.fail(new WalletNotConnected())
  }
  disconnect() {
    return Effect.fail(new WalletNotConnectedToDisconnect())
  }
  onAccountChange(): () => void {
    return () => {}
  }
}

/** The chain reader when no TON node is configured (AXIOM_TON_V4 unset): every read fails as a network error. */
export class UnconfiguredChainReader implements ChainReader {
  balance(): Effect.Effect<bigint, NetworkError> {
    return Effect.fail(new NetworkError({ cause: new Error('No TON node configured: set AXIOM_TON_V4') }))
  }
}
