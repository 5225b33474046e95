import { beginCell, storeStateInit } from '@ton/core'
import { createShardAccount } from '@ton/sandbox'
import { WalletContractV2R2, WalletContractV5R1 } from '@ton/ton'
import { describe, expect, it } from 'vitest'
import { devWalletKey } from '../../stand-ins/chain/dev-keys.ts'
import { createTonProofService, publicKeyFromStateInit, type TonProofCheck } from '../../server/auth/ton-proof.ts'
import { signTonProof } from '../../stand-ins/ton-connect/sign-ton-proof.ts'
import { startStack } from './support.ts'

const NOW = 1_790_000_000
const clock = { now: NOW }
const service = () => createTonProofService({ secret: 'test-secret', allowedDomains: ['localhost', 'axiom.example'], now: () => clock.now })
const key = devWalletKey(0)
const other = devWalletKey(1)
const stateInitOf = (k = key) => beginCell().store(storeStateInit(k.wallet.init)).endCell().toBoc().toString('base64')

const proofFor = (payload: string, o: { domain?: string; timestamp?: number; signer?: typeof key; address?: typeof key; stateInit?: typeof key } = {}): TonProofCheck => {
  const signer = o.signer ?? key
  const claimed = o.address ?? key
  const p = signTonProof({ address: claimed.wallet.address, secretKey: signer.keyPair.secretKey, domain: o.domain ?? 'localhost:5173', payload, timestamp: o.timestamp ?? clock.now })
  return { address: claimed.address, network: '-239', proof: { ...p, state_init: stateInitOf(o.stateInit ?? claimed) } }
}

describe('tonProof', () => {
  it('reads the public key of a V4R2 stateInit', () => {
    expect(publicKeyFromStateInit(key.wallet.init)?.equals(key.keyPair.publicKey)).toBe(true)
  })

  it('accepts a valid proof once', () => {
    clock.now = NOW
    const s = service()
    const payload = s.issue()
    expect(payload).toMatch(/^[0-9a-f]{56}$/)
    const check = proofFor(payload)
    expect(s.verify({ ...check, public_key: key.keyPair.publicKey.toString('hex') })).toEqual({
      valid: true,
      address: key.address,
      publicKey: key.keyPair.publicKey.toString('hex'),
    })
    expect(s.verify(check)).toEqual({ valid: false, msg: 'Payload already used' })
  })

  it('refuses a forged signature (and it does not burn the payload)', () => {
    clock.now = NOW
    const s = service()
    const payload = s.issue()
    expect(s.verify(proofFor(payload, { signer: other }))).toEqual({ valid: false, msg: 'Invalid signature' })
    const tampered = proofFor(payload)
    const sig = Buffer.from(tampered.proof.signature, 'base64')
    sig[0]! ^= 1
    expect(s.verify({ ...tampered, proof: { ...tampered.proof, signature: sig.toString('base64') } })).toEqual({ valid: false, msg: 'Invalid signature' })
    expect(s.verify(proofFor(payload)).valid).toBe(true)
  })

  it('refuses a domain off the allow-list, or a lying length', () => {
    clock.now = NOW
    const s = service()
    const payload = s.issue()
    expect(s.verify(proofFor(payload, { domain: 'evil.example' }))).toEqual({ valid: false, msg: 'Domain evil.example is not allowed' })
    const p = proofFor(payload)
    expect(s.verify({ ...p, proof: { ...p.proof, domain: { ...p.proof.domain, lengthBytes: 3 } } }).valid).toBe(false)
    expect(s.verify(proofFor(payload, { domain: 'axiom.example' })).valid).toBe(true)
  })

  it('refuses a stale or future timestamp', () => {
    clock.now = NOW
    const s = service()
    const payload = s.issue()
    expect(s.verify(proofFor(payload, { timestamp: NOW - 301 }))).toEqual({ valid: false, msg: 'Proof is too old' })
    expect(s.verify(proofFor(payload, { timestamp: NOW + 301 }))).toEqual({ valid: false, msg: 'Proof is from the future' })
  })

  it('refuses a payload it did not issue, or one past its life', () => {
    clock.now = NOW
    const s = service()
    const foreign = createTonProofService({ secret: 'another-secret', allowedDomains: ['localhost'], now: () => clock.now }).issue()
    expect(s.verify(proofFor(foreign))).toEqual({ valid: false, msg: 'Unknown payload' })
    expect(s.verify(proofFor('hello'))).toEqual({ valid: false, msg: 'Unknown payload' })
    const payload = s.issue()
    clock.now = NOW + 901
    expect(s.verify(proofFor(payload))).toEqual({ valid: false, msg: 'Payload expired' })
  })

  it('refuses an address the stateInit does not deploy to, and a public_key that is not in it', () => {
    clock.now = NOW
    const s = service()
    const payload = s.issue()
    // Signed by the real key of wallet 0 but claimed for wallet 1's address with wallet 0's stateInit.
    expect(s.verify(proofFor(payload, { address: other, stateInit: key, signer: key }))).toEqual({
      valid: false,
      msg: 'Address does not match the state_init',
    })
    expect(s.verify({ ...proofFor(payload), public_key: other.keyPair.publicKey.toString('hex') })).toEqual({
      valid: false,
      msg: 'public_key does not match the state_init',
    })
    expect(s.verify({ ...proofFor(payload), network: '1' }).valid).toBe(false)
  })
})

describe('tonProof of a W5 (v5r1) wallet, and the network', () => {
  const w5Key = devWalletKey(2).keyPair
  const w5 = WalletContractV5R1.create({ publicKey: w5Key.publicKey, walletId: { networkGlobalId: -239 } })
  const w5Proof = (s: ReturnType<typeof service>, network: string | undefined): TonProofCheck => {
    const p = signTonProof({ address: w5.address, secretKey: w5Key.secretKey, domain: 'axiom.example', payload: s.issue(), timestamp: clock.now })
    return {
      address: w5.address.toRawString(),
      ...(network !== undefined ? { network } : {}),
      proof: { ...p, state_init: beginCell().store(storeStateInit(w5.init)).endCell().toBoc().toString('base64') },
    }
  }

  it("accepts a W5 wallet's proof: its key read from the v5r1 data", () => {
    clock.now = NOW
    const s = service()
    expect(s.verify(w5Proof(s, '-239'))).toEqual({ valid: true, address: w5.address.toRawString(), publicKey: w5Key.publicKey.toString('hex') })
  })

  it('a mainnet service refuses a testnet proof, and one that names no network', () => {
    clock.now = NOW
    const mainnet = createTonProofService({ secret: 'test-secret', allowedDomains: ['axiom.example'], networks: ['-239'], now: () => clock.now })
    expect(mainnet.verify(w5Proof(mainnet, '-3'))).toEqual({ valid: false, msg: 'Network -3 is not accepted' })
    expect(mainnet.verify(w5Proof(mainnet, undefined))).toEqual({ valid: false, msg: 'The proof must name its network (-239)' })
    expect(mainnet.verify(w5Proof(mainnet, '-239')).valid).toBe(true)
  })
})

describe('tonProof of a wallet whose code the backend does not know: the get_public_key fallback', () => {
  // v4r1 is the common such wallet; v2r2 stands in for it here (its code is in @ton/ton, not in the
  // verifier's table, and it answers get_public_key as v4r1 does).
  const kp = devWalletKey(1).keyPair
  const old = WalletContractV2R2.create({ workchain: 0, publicKey: kp.publicKey })
  const check = (payload: string): TonProofCheck => {
    const p = signTonProof({ address: old.address, secretKey: kp.secretKey, domain: 'localhost:5173', payload, timestamp: Math.floor(Date.now() / 1000) })
    return { address: old.address.toRawString(), network: '-239', proof: { ...p, state_init: beginCell().store(storeStateInit(old.init)).endCell().toBoc().toString('base64') } }
  }

  it('verify alone refuses it; verifyAsync asks the chain for the key, and a wrong key still fails', async () => {
    const fallback = (key: Buffer | null) =>
      createTonProofService({ secret: 's', allowedDomains: ['localhost'], publicKeyOf: async (a) => (a.equals(old.address) ? key : null) })
    const s1 = fallback(kp.publicKey)
    const p1 = s1.issue()
    expect(s1.verify(check(p1))).toEqual({ valid: false, msg: 'Unsupported wallet contract' })
    expect(await s1.verifyAsync(check(p1))).toMatchObject({ valid: true, address: old.address.toRawString() })
    const s2 = fallback(devWalletKey(2).keyPair.publicKey)
    expect(await s2.verifyAsync(check(s2.issue()))).toEqual({ valid: false, msg: 'Invalid signature' })
    const s3 = fallback(null)
    expect(await s3.verifyAsync(check(s3.issue()))).toEqual({ valid: false, msg: 'Unsupported wallet contract' })
  })

  it("the backend's wallet binding reads the key of the deployed wallet through its v4 endpoint", async () => {
    const s = await startStack()
    try {
      await s.ton.chain.exclusive(() =>
        s.ton.chain.blockchain.setShardAccount(old.address, createShardAccount({ address: old.address, code: old.init.code, data: old.init.data, balance: 10n ** 9n })),
      )
      const user = await s.ts.login(8702)
      const { payload } = (await user.call('POST', '/wallet/ton-proof/payload')).body
      const r = await user.call('POST', '/wallet/ton-proof/check', { body: check(payload) })
      expect(r.status).toBe(200)
      expect(r.body.wallet_address).toBe(old.address.toString({ bounceable: false, urlSafe: true, testOnly: false }))
    } finally {
      await s.close()
    }
  })
})
