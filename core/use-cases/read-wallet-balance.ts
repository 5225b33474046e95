import { Effect } from 'effect'
import type { WalletBalance } from '../domain/wallet-balance.ts'
import type { ChainReader } from '../ports/chain-reader.port.ts'
import type { Wallet } from '../ports/wallet.port.ts'

const NONE: WalletBalance = { kind: 'none' }
const UNAVAILABLE: WalletBalance = { kind: 'unavailable' }

/**
 * The connected wallet's coin balance, read from the chain (the bond form shows it, and its Max is
 * reckoned from it). It never fails: with no wallet it is `none`, and a read that fails (network,
 * node, timeout) is `unavailable`, which the form says in place; no error is told for it.
 */
export const readWalletBalance =
  (deps: { readonly wallet: Pick<Wallet, 'account'>; readonly chain: ChainReader }) =>
  (): Effect.Effect<WalletBalance> => {
    const account = deps.wallet.account()
    if (!account) return Effect.succeed(NONE)
    return deps.chain.balance(account.address).pipe(
      Effect.map((nano): WalletBalance => ({ kind: 'read', nano })),
      Effect.catch(() => Effect.succeed(UNAVAILABLE)),
    )
  }
