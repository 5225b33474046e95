import { beginCell, storeStateInit } from '@ton/core'
import { expect } from 'vitest'
import type { DevKey } from '../../stand-ins/chain/dev-keys.ts'
import { signTonProof } from '../../stand-ins/ton-connect/sign-ton-proof.ts'
import type { Session } from '../server/support.ts'

/**
 * Proves `wallet` for the user of `session` as TON Connect does (POST /wallet/ton-proof/payload, then
 * /check with the wallet's own signature and StateInit, built by hand: tests/server/wallet-binding.test.ts),
 * at `nowS` (the server's clock). The default tonProof domain list takes `localhost:5173`.
 */
export const proveWallet = async (session: Session, wallet: DevKey, nowS: number): Promise<void> => {
  const payload = await session.call('POST', '/wallet/ton-proof/payload')
  expect(payload.status).toBe(200)
  const proof = signTonProof({ address: wallet.wallet.address, secretKey: wallet.keyPair.secretKey, domain: 'localhost:5173', payload: payload.body.payload, timestamp: nowS })
  const res = await session.call('POST', '/wallet/ton-proof/check', {
    body: {
      address: wallet.address,
      network: '-239',
      public_key: wallet.keyPair.publicKey.toString('hex'),
      proof: { ...proof, state_init: beginCell().store(storeStateInit(wallet.wallet.init)).endCell().toBoc().toString('base64') },
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}
