import { createHash } from 'node:crypto'
import { Address } from '@ton/core'
import { keyPairFromSeed, type KeyPair } from '@ton/crypto'
import { WalletContractV4 } from '@ton/ton'

/**
 * The local chain's fixed keys. Each key is `keyPairFromSeed(sha256(seedText))`, so every address is
 * the same on every run and on every machine. They guard toy coins on a throwaway @ton/sandbox chain:
 * not secret, never to be used on a real network.
 */
export const TREASURY_SEED_TEXT = 'axiom-local-ton:treasury'
export const devWalletSeedText = (index: number) => `axiom-local-ton:dev-wallet:${index}`

/** How many dev wallets the chain funds by default, and with how much (nanotons). */
export const DEFAULT_DEV_WALLETS = 3
export const DEFAULT_DEV_WALLET_BALANCE = 1_000_000_000_000n // 1 000 TON
export const DEFAULT_TREASURY_BALANCE = 100_000_000_000_000n // 100 000 TON

export interface DevKey {
  readonly label: string
  readonly seedText: string
  readonly keyPair: KeyPair
  readonly wallet: WalletContractV4
  /** Raw form `0:<64 hex>`. */
  readonly address: string
  /** Friendly, non-bounceable, url-safe (what a wallet app shows). */
  readonly friendly: string
}

const cache = new Map<string, DevKey>()

export const devKeyFromSeedText = (label: string, seedText: string): DevKey => {
  const hit = cache.get(seedText)
  if (hit) return hit
  const seed = createHash('sha256').update(seedText).digest()
  const keyPair = keyPairFromSeed(seed)
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey })
  const key: DevKey = {
    label,
    seedText,
    keyPair,
    wallet,
    address: wallet.address.toRawString(),
    friendly: wallet.address.toString({ bounceable: false, urlSafe: true }),
  }
  cache.set(seedText, key)
  return key
}

/** The treasury bonds are paid to: a WalletContractV4 (r2) on workchain 0. */
export const treasuryKey = (): DevKey => devKeyFromSeedText('treasury', TREASURY_SEED_TEXT)

/** The raw address the backend must use as `treasuryAddress` (AXIOM_TREASURY) with the local chain. */
export const localTreasuryAddress = (): string => treasuryKey().address

/** The faucet: local test TON for any address (POST /faucet on the local TON server), as testnet's faucet bot. */
export const faucetKey = (): DevKey => devKeyFromSeedText('faucet', 'axiom-local-ton:faucet')
export const DEFAULT_FAUCET_BALANCE = 10_000_000_000_000_000n // 10 million TON

export const devWalletKey = (index: number): DevKey => devKeyFromSeedText(`dev-wallet-${index}`, devWalletSeedText(index))

/** The seed of the dev wallet of one Telegram user: the dev wallet answers each user with their own. */
export const userDevWalletSeedText = (telegramId: string | number | bigint) => `axiom-local-ton:dev-wallet:tg:${String(telegramId)}`

/** The dev wallet key of one Telegram user (funded by the chain on first use, `LocalChain.fund`). */
export const userDevWalletKey = (telegramId: string | number | bigint): DevKey =>
  devKeyFromSeedText(`dev-wallet-tg-${String(telegramId)}`, userDevWalletSeedText(telegramId))

export const sameAddress = (a: string | Address, b: string | Address): boolean => {
  try {
    return (typeof a === 'string' ? Address.parse(a) : a).equals(typeof b === 'string' ? Address.parse(b) : b)
  } catch {
    return false
  }
}
