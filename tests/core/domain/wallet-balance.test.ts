import { Effect } from 'effect'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BOND_FEE_RESERVE, coinFromNano, maxBondAmount, truncateDecimal } from '../../../core/index.ts'
import { mulNanoUp } from '../../../server/domain/money.ts'
import { FakeChainReader } from '../fakes/fake-chain-reader.ts'
import { ACCOUNT, ScriptedWallet } from '../fakes/scripted-wallet.ts'
import { useCasesOver } from '../fakes/use-cases.ts'

const NANO = 1_000_000_000n
const RESERVE_NANO = 50_000_000n
const nanoOf = (text: string): bigint => {
  const [int = '0', frac = ''] = text.split('.')
  return BigInt(int) * NANO + BigInt(frac.padEnd(9, '0'))
}
/** What the backend asks for `amount` AXIOM at `price` coin per AXIOM (bondTerms: amount × price, rounded up to the nano-unit). */
const asked = (amount: number, price: number): bigint => mulNanoUp(nanoOf(truncateDecimal(amount, 2)), nanoOf(truncateDecimal(price, 9)))

describe('maxBondAmount (the bond form’s Max)', () => {
  it('the fee reserve is 0.05 of the coin', () => {
    expect(BOND_FEE_RESERVE).toBe(0.05)
  })

  it('10.05 at 0.5 per AXIOM: 20.00 (the reserve kept); 1.2345 at 0.031319: 37.82, cut, never rounded', () => {
    expect(maxBondAmount(10_050_000_000n, 0.5)).toBe(20)
    // (1.2345 − 0.05) / 0.031319 = 37.8204…
    expect(maxBondAmount(1_234_500_000n, 0.031319)).toBe(37.82)
  })

  it('nothing to spend, or no price: 0', () => {
    expect(maxBondAmount(RESERVE_NANO, 0.5)).toBe(0)
    expect(maxBondAmount(0n, 0.5)).toBe(0)
    expect(maxBondAmount(10n * NANO, 0)).toBe(0)
    expect(maxBondAmount(10n * NANO, Number.NaN)).toBe(0)
  })

  it('law: what the backend asks for Max fits the balance less the reserve, and one cent more would not', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: RESERVE_NANO + 1n, max: 100_000n * NANO }),
        fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 1e6),
        (balance, price) => {
          const max = maxBondAmount(balance, price)
          expect(truncateDecimal(max, 2)).toBe(String(max))
          expect(asked(max, price)).toBeLessThanOrEqual(balance - RESERVE_NANO)
          expect(asked(Math.round(max * 100 + 1) / 100, price)).toBeGreaterThan(balance - RESERVE_NANO)
        },
      ),
    )
  })

  it('coinFromNano writes nano-units exactly', () => {
    expect(coinFromNano(12_345_678_901n)).toBe('12.345678901')
    expect(coinFromNano(5n * NANO)).toBe('5')
    expect(coinFromNano(1n)).toBe('0.000000001')
    expect(coinFromNano(-1_500_000_000n)).toBe('-1.5')
  })
})

describe('readWalletBalance', () => {
  it('reads the connected wallet’s balance from the chain', async () => {
    const chain = new FakeChainReader()
    chain.setBalance(ACCOUNT.address, 7_500_000_000n)
    expect(await Effect.runPromise(useCasesOver({ chain }).readWalletBalance())).toEqual({ kind: 'read', nano: 7_500_000_000n })
  })

  it('no wallet connected: none, and the chain is not asked', async () => {
    const chain = new FakeChainReader()
    expect(await Effect.runPromise(useCasesOver({ chain, wallet: new ScriptedWallet(null) }).readWalletBalance())).toEqual({ kind: 'none' })
    expect(chain.reads).toBe(0)
  })

  it('the chain cannot be read: unavailable, not an error', async () => {
    // The fake node knows no balance for the address: a NetworkError.
    expect(await Effect.runPromise(useCasesOver({ chain: new FakeChainReader() }).readWalletBalance())).toEqual({ kind: 'unavailable' })
  })
})
