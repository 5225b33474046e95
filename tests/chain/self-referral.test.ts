import { beginCell, storeStateInit } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commentCell } from '../../stand-ins/chain/local-chain.ts'
import type { DevKey } from '../../stand-ins/chain/dev-keys.ts'
import { signTonProof } from '../../stand-ins/ton-connect/sign-ton-proof.ts'
import type { Session } from '../server/support.ts'
import { eventually, startStack, type Stack } from './support.ts'

/**
 * A referral bonus is earned by a friend's bond paid from a wallet that is not the referrer's:
 * a referrer who pays their second account's bonds from their own wallet earns nothing. Bonds are
 * paid on the local sandbox chain from dev wallets; the referrer's wallet is proven over HTTP with a
 * tonProof signed by the wallet's key.
 */

let s: Stack
beforeAll(async () => {
  s = await startStack({ devWallets: 7 })
})
afterAll(async () => s?.close())

const ok = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as any
}

/** Binds dev wallet `wallet` to the session's user: payload, a proof signed by the wallet's key, check. */
const bindWallet = async (user: Session, wallet: DevKey) => {
  const { payload } = ok(await user.call('POST', '/wallet/ton-proof/payload'))
  const proof = signTonProof({ address: wallet.wallet.address, secretKey: wallet.keyPair.secretKey, domain: 'localhost:5173', payload, timestamp: s.ts.clock.now })
  const stateInit = beginCell().store(storeStateInit(wallet.wallet.init)).endCell().toBoc().toString('base64')
  ok(
    await user.call('POST', '/wallet/ton-proof/check', {
      body: { address: wallet.address, network: '-239', public_key: wallet.keyPair.publicKey.toString('hex'), proof: { ...proof, state_init: stateInit } },
    }),
  )
}

/** Creates a bond for `buyer` and pays it from dev wallet `from`; waits until it is active. Each call another amount (creates are deduplicated for 5 s). */
const payBond = async (buyer: Session, from: DevKey, amount: number) => {
  const { mint, payment } = ok(await buyer.call('POST', '/mint/create', { body: { amount, days: 30 } }))
  await s.ton.chain.transfer(from, [{ to: s.ton.treasuryAddress, value: BigInt(payment.amount_nano), body: commentCell(payment.comment), bounce: true }])
  await eventually(async () => (ok(await buyer.call('GET', '/mint/')).items as Array<{ id: number; status: string }>).find((m) => m.id === mint.id)?.status === 'active')
}

const referralOf = async (user: Session) => {
  const me = ok(await user.call('GET', '/user/me'))
  return { balance: me.referral_balance as string, turnover: me.ref.turnover as string }
}

describe('referral bonus and the paying wallet', () => {
  it("a friend's bond paid from the referrer's proven wallet earns nothing; paid from the friend's own wallet it earns the bonus", async () => {
    const referrer = await s.ts.login(8101)
    const refCode = ok(await referrer.call('GET', '/user/me')).ref_code as string
    const own = s.ton.chain.devWallet(3)
    await bindWallet(referrer, own)
    const friend = await s.ts.login(8102, refCode)

    await payBond(friend, own, 100)
    expect(await referralOf(referrer)).toEqual({ balance: '0', turnover: '0' })

    // (Another amount: an identical create within 5 s would answer the first bond.)
    await payBond(friend, s.ton.chain.devWallet(4), 120)
    // Tier 0's bonus: 5 % of 120.
    expect(await referralOf(referrer)).toEqual({ balance: '6', turnover: '120' })
  })

  it("a wallet that paid the referrer's own bond is the referrer's, proven or not", async () => {
    const referrer = await s.ts.login(8201)
    const refCode = ok(await referrer.call('GET', '/user/me')).ref_code as string
    const friend = await s.ts.login(8202, refCode)
    const wallet = s.ton.chain.devWallet(5)
    await payBond(referrer, wallet, 50)
    await payBond(friend, wallet, 100)
    expect(await referralOf(referrer)).toEqual({ balance: '0', turnover: '0' })
    await payBond(friend, s.ton.chain.devWallet(6), 120)
    expect(await referralOf(referrer)).toEqual({ balance: '6', turnover: '120' })
  })
})
