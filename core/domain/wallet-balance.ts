import { NANO_PER_TON } from './constants.ts'
import { truncateDecimal } from './format-amount.ts'

/**
 * What the bond form's Max leaves in the wallet for the network fee, in the chain's coin: paying a
 * bond is one message from the user's wallet, which pays its own gas and forwarding (a few
 * thousandths on mainnet; 0.05 keeps a wide margin, as wallets' own "max" buttons do).
 */
export const BOND_FEE_RESERVE = 0.05
const NANO = BigInt(NANO_PER_TON)
const FEE_RESERVE_NANO = BigInt(Math.round(BOND_FEE_RESERVE * NANO_PER_TON))

/** The connected wallet's coin balance as the chain reader gave it. */
export type WalletBalance =
  /** No wallet is connected: nothing to read. */
  | { readonly kind: 'none' }
  /** In nano-units (1e9 per coin). */
  | { readonly kind: 'read'; readonly nano: bigint }
  /** The chain could not be read (network, node, timeout): the form works without it. */
  | { readonly kind: 'unavailable' }

/** A nano-unit amount as exact decimal text in the coin ('12.5', '0.000000001'). */
export const coinFromNano = (nano: bigint): string => {
  const sign = nano < 0n ? '-' : ''
  const abs = nano < 0n ? -nano : nano
  const frac = (abs % NANO).toString().padStart(9, '0').replace(/0+$/, '')
  return `${sign}${abs / NANO}${frac ? `.${frac}` : ''}`
}

/**
 * The largest bond amount (AXIOM, truncated to `decimals` places, never rounded up) that a wallet
 * balance of `balanceNano` pays for at `price` (coin per AXIOM), keeping BOND_FEE_RESERVE for the
 * network fee. The backend asks amount × price rounded up to the nano-unit, so this amount's price
 * fits what is left. 0 when the balance does not cover the reserve or there is no price.
 */
export const maxBondAmount = (balanceNano: bigint, price: number, decimals = 2): number => {
  if (!Number.isFinite(price) || price <= 0) return 0
  const spendable = balanceNano - FEE_RESERVE_NANO
  if (spendable <= 0n) return 0
  // The price in nano-units per AXIOM, rounded up: a max never asks more than is left.
  const [int = '0', frac = ''] = truncateDecimal(price, 18).split('.')
  const scaled = BigInt(int + frac.padEnd(18, '0'))
  const priceNano = (scaled + 10n ** 9n - 1n) / 10n ** 9n
  if (priceNano <= 0n) return 0
  const step = 10n ** BigInt(decimals)
  const units = (spendable * step) / priceNano
  return Number(truncateDecimal(`${units / step}.${(units % step).toString().padStart(decimals, '0')}`, decimals))
}
