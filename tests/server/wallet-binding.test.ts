import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beginCell, storeStateInit } from '@ton/core'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UserData } from '../../core/domain/entities/user.ts'
import { devWalletKey, type DevKey } from '../../stand-ins/chain/dev-keys.ts'
import { optionsFromEnv } from '../../server/main.ts'
import { signTonProof } from '../../stand-ins/ton-connect/sign-ton-proof.ts'
import { decode, startTestServer, type Reply, type Session, type TestServer } from './support.ts'

/** V4R2 wallets (stand-ins/chain/dev-keys.ts): a real key pair and the StateInit a wallet sends. */
const A = devWalletKey(20)
const B = devWalletKey(21)
const C = devWalletKey(22)
const stateInitOf = (k: DevKey) => beginCell().store(storeStateInit(k.wallet.init)).endCell().toBoc().toString('base64')

interface ProofOptions {
  /** Whose secret key signs (default: the claimed wallet's). */
  readonly signer?: DevKey
  /** Whose StateInit is sent (default: the claimed wallet's). */
  readonly stateInit?: DevKey
  readonly domain?: string
  readonly timestamp?: number
  readonly network?: string
  readonly publicKey?: string
}

/** The check body a client sends: TON Connect's ton_addr (address, network, public key) + the ton_proof item. */
const checkBody = (t: TestServer, wallet: DevKey, payload: string, o: ProofOptions = {}) => {
  const signer = o.signer ?? wallet
  const proof = signTonProof({
    address: wallet.wallet.address,
    secretKey: signer.keyPair.secretKey,
    domain: o.domain ?? 'localhost:5173',
    payload,
    timestamp: o.timestamp ?? t.clock.now,
  })
  return {
    address: wallet.address,
    network: o.network ?? '-239',
    public_key: o.publicKey ?? wallet.keyPair.publicKey.toString('hex'),
    proof: { ...proof, state_init: stateInitOf(o.stateInit ?? wallet) },
  }
}

const payloadFor = async (s: Session): Promise<string> => {
  const res = await s.call('POST', '/wallet/ton-proof/payload')
  expect(res.status).toBe(200)
  expect(res.body.payload).toMatch(/^[0-9a-f]{56}$/)
  return res.body.payload
}

const check = (s: Session, body: unknown) => s.call('POST', '/wallet/ton-proof/check', { body })

const refused = (res: Reply, status: number, msg: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body).toEqual({ msg })
}

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

describe('wallet binding with tonProof', () => {
  it('binds a wallet whose proof verifies, and /user/me shows it', async () => {
    const s = await t.login(7001)
    const before = await s.call('GET', '/user/me')
    expect(before.body.wallet_address).toBeNull()
    expect(decode(UserData, before.body).wallet_address).toBeNull()

    const res = await check(s, checkBody(t, A, await payloadFor(s)))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({ wallet_address: A.friendly })
    expect(A.friendly.startsWith('UQ')).toBe(true)

    const me = await s.call('GET', '/user/me')
    expect(me.body.wallet_address).toBe(A.friendly)
    expect(decode(UserData, me.body).wallet_address).toBe(A.friendly)
  })

  it('refuses a forged signature, and the payload stays usable', async () => {
    const s = await t.login(7002)
    const payload = await payloadFor(s)
    refused(await check(s, checkBody(t, B, payload, { signer: C })), 400, 'Invalid proof: Invalid signature')

    const tampered = checkBody(t, B, payload)
    const sig = Buffer.from(tampered.proof.signature, 'base64')
    sig[10]! ^= 0x40
    refused(await check(s, { ...tampered, proof: { ...tampered.proof, signature: sig.toString('base64') } }), 400, 'Invalid proof: Invalid signature')
    refused(await check(s, { ...tampered, proof: { ...tampered.proof, signature: 'AAAA' } }), 400, 'Invalid proof: Invalid signature')
    // A signature over another payload (the one actually signed differs from the one sent).
    const other = checkBody(t, B, await payloadFor(s))
    refused(await check(s, { ...tampered, proof: { ...tampered.proof, signature: other.proof.signature } }), 400, 'Invalid proof: Invalid signature')

    expect((await check(s, checkBody(t, B, payload))).status).toBe(200)
  })

  it('refuses a domain off the allow-list, and a lying domain length', async () => {
    const s = await t.login(7003)
    const payload = await payloadFor(s)
    refused(await check(s, checkBody(t, C, payload, { domain: 'evil.example' })), 400, 'Invalid proof: Domain evil.example is not allowed')
    refused(await check(s, checkBody(t, C, payload, { domain: 'localhost.evil.example' })), 400, 'Invalid proof: Domain localhost.evil.example is not allowed')
    const lying = checkBody(t, C, payload)
    refused(await check(s, { ...lying, proof: { ...lying.proof, domain: { ...lying.proof.domain, lengthBytes: 9 } } }), 400, 'Invalid proof: Domain length mismatch')
    // The default allow-list names bare hosts: any port of them passes, as does no port.
    expect((await check(s, checkBody(t, C, payload, { domain: '127.0.0.1:8788' }))).status).toBe(200)
  })

  it('refuses a stale or future timestamp, and an expired payload', async () => {
    const s = await t.login(7004)
    const payload = await payloadFor(s)
    const wallet = devWalletKey(23)
    refused(await check(s, checkBody(t, wallet, payload, { timestamp: t.clock.now - 301 })), 400, 'Invalid proof: Proof is too old')
    refused(await check(s, checkBody(t, wallet, payload, { timestamp: t.clock.now + 301 })), 400, 'Invalid proof: Proof is from the future')

    const old = await payloadFor(s)
    t.clock.advance(901)
    // The access token lives 15 min too: sign in again (the same user, so the payload is still theirs).
    const again = await t.login(7004)
    refused(await check(again, checkBody(t, wallet, old)), 400, 'Invalid proof: Payload expired')
    expect((await check(again, checkBody(t, wallet, await payloadFor(again)))).status).toBe(200)
  })

  it('a payload is single-use', async () => {
    const s = await t.login(7005)
    const wallet = devWalletKey(24)
    const payload = await payloadFor(s)
    expect((await check(s, checkBody(t, wallet, payload))).status).toBe(200)
    refused(await check(s, checkBody(t, wallet, payload)), 400, 'Invalid proof: Payload already used')
  })

  it("a payload is bound to the user it was issued to: another user's payload is refused", async () => {
    const alice = await t.login(7006)
    const mallory = await t.login(7007)
    const alicePayload = await payloadFor(alice)
    const wallet = devWalletKey(25)
    refused(await check(mallory, checkBody(t, wallet, alicePayload)), 400, 'Invalid proof: Unknown payload')
    // Not spent by the refused attempt: Alice can still use it.
    expect((await check(alice, checkBody(t, wallet, alicePayload))).status).toBe(200)
    refused(await check(alice, checkBody(t, wallet, 'ab'.repeat(28))), 400, 'Invalid proof: Unknown payload')
  })

  it('refuses an address the StateInit does not deploy to, a public_key not in it, and an unknown network', async () => {
    const s = await t.login(7008)
    const payload = await payloadFor(s)
    const wallet = devWalletKey(26)
    // Signed by wallet 26's real key, claimed for B's address with wallet 26's StateInit.
    refused(
      await check(s, checkBody(t, B, payload, { signer: wallet, stateInit: wallet, publicKey: wallet.keyPair.publicKey.toString('hex') })),
      400,
      'Invalid proof: Address does not match the state_init',
    )
    refused(
      await check(s, checkBody(t, wallet, payload, { publicKey: B.keyPair.publicKey.toString('hex') })),
      400,
      'Invalid proof: public_key does not match the state_init',
    )
    refused(await check(s, checkBody(t, wallet, payload, { network: '1' })), 400, 'Invalid proof: Network 1 is not accepted')
    const body = checkBody(t, wallet, payload)
    refused(await check(s, { ...body, proof: { ...body.proof, state_init: 'te6cc' } }), 400, 'Invalid proof: Invalid state_init')
    refused(await check(s, { ...body, address: 'not-an-address' }), 400, 'Invalid proof: Invalid address')
    expect((await check(s, body)).status).toBe(200)
  })

  it('a wallet bound to one user cannot be bound to another (409); the same user may bind it again or replace it', async () => {
    const first = await t.login(7009)
    const second = await t.login(7010)
    const wallet = devWalletKey(27)
    expect((await check(first, checkBody(t, wallet, await payloadFor(first)))).status).toBe(200)

    const secondPayload = await payloadFor(second)
    refused(await check(second, checkBody(t, wallet, secondPayload)), 409, 'This wallet is already bound to another account')
    expect((await second.call('GET', '/user/me')).body.wallet_address).toBeNull()
    // The refused bind did not spend the payload: the second user can still prove another wallet with it.
    const own = devWalletKey(30)
    expect((await check(second, checkBody(t, own, secondPayload))).status).toBe(200)
    expect((await first.call('GET', '/user/me')).body.wallet_address).toBe(wallet.friendly)

    // Bound again by its owner: fine. Then the owner binds another wallet, which frees the first one.
    expect((await check(first, checkBody(t, wallet, await payloadFor(first)))).body).toEqual({ wallet_address: wallet.friendly })
    const next = devWalletKey(28)
    expect((await check(first, checkBody(t, next, await payloadFor(first)))).body).toEqual({ wallet_address: next.friendly })
    expect((await first.call('GET', '/user/me')).body.wallet_address).toBe(next.friendly)
    expect((await check(second, checkBody(t, wallet, await payloadFor(second)))).status).toBe(200)
  })

  it('shows a testnet wallet test-flagged', async () => {
    const s = await t.login(7011)
    const wallet = devWalletKey(29)
    const res = await check(s, checkBody(t, wallet, await payloadFor(s), { network: '-3' }))
    expect(res.status).toBe(200)
    expect(res.body.wallet_address.startsWith('0Q')).toBe(true)
    expect((await s.call('GET', '/user/me')).body.wallet_address).toBe(res.body.wallet_address)
  })

  it('needs a signed-in user', async () => {
    refused(await t.call('POST', '/wallet/ton-proof/payload'), 401, 'Not authenticated')
    refused(await t.call('POST', '/wallet/ton-proof/check', { body: {} }), 401, 'Not authenticated')
  })

  it('answers malformed bodies with 422 naming the field, never a 5xx', async () => {
    const s = await t.login(7012)
    const valid = checkBody(t, devWalletKey(30), await payloadFor(s))
    refused(await check(s, { ...valid, address: undefined }), 422, 'address is required')
    refused(await check(s, { ...valid, proof: undefined }), 422, 'proof is required')
    refused(await check(s, { ...valid, proof: 'x' }), 422, 'proof must be an object')
    refused(await check(s, { ...valid, proof: { ...valid.proof, timestamp: '1' } }), 422, 'proof.timestamp must be a whole number')
    refused(await check(s, { ...valid, proof: { ...valid.proof, domain: null } }), 422, 'proof.domain is required')
    refused(await check(s, { ...valid, proof: { ...valid.proof, signature: 5 } }), 422, 'proof.signature is required')
    refused(await check(s, { ...valid, public_key: 'xyz' }), 422, 'public_key must be 64 hex characters')
    refused(await check(s, { ...valid, network: {} }), 422, 'network must be a chain id such as "-239"')
    expect((await s.call('POST', '/wallet/ton-proof/check', { rawBody: '{', contentType: 'application/json' })).status).toBe(400)

    const junk = fc.oneof(fc.anything(), fc.string(), fc.constant(null), fc.constant({}), fc.integer())
    const fields = ['address', 'network', 'public_key', 'proof'] as const
    const proofFields = ['timestamp', 'domain', 'payload', 'signature', 'state_init'] as const
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          junk,
          fc.tuple(fc.constantFrom(...fields), junk).map(([k, v]) => ({ ...valid, [k]: v })),
          fc.tuple(fc.constantFrom(...proofFields), junk).map(([k, v]) => ({ ...valid, proof: { ...valid.proof, [k]: v } })),
        ),
        async (body) => {
          // Some of these stay valid (e.g. public_key: null is "not sent"): those bind, the rest are 4xx.
          const res = await check(s, body)
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(500)
          if (res.status === 200) expect(typeof res.body.wallet_address).toBe('string')
          else {
            expect(res.status).toBeGreaterThanOrEqual(400)
            expect(typeof res.body.msg).toBe('string')
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('tonProof domains from config', () => {
  it('AXIOM_TON_PROOF_DOMAINS is a comma-separated list; unset keeps localhost and 127.0.0.1', () => {
    expect(optionsFromEnv({}).tonProofDomains).toBeUndefined()
    expect(optionsFromEnv({ AXIOM_TON_PROOF_DOMAINS: ' app.axiom.example , axiom.example:8443,' }).tonProofDomains).toEqual([
      'app.axiom.example',
      'axiom.example:8443',
    ])
  })

  it('a domain with a port must match exactly; a bare one matches any port; localhost is off the list once replaced', async () => {
    const s2 = await startTestServer({ tonProofDomains: ['axiom.example:8443', 'app.axiom.example'] })
    try {
      const u = await s2.login(7100)
      const wallet = devWalletKey(31)
      const payload = await payloadFor(u)
      refused(await check(u, checkBody(s2, wallet, payload)), 400, 'Invalid proof: Domain localhost:5173 is not allowed')
      refused(await check(u, checkBody(s2, wallet, payload, { domain: 'axiom.example:9999' })), 400, 'Invalid proof: Domain axiom.example:9999 is not allowed')
      refused(await check(u, checkBody(s2, wallet, payload, { domain: 'axiom.example' })), 400, 'Invalid proof: Domain axiom.example is not allowed')
      expect((await check(u, checkBody(s2, wallet, payload, { domain: 'axiom.example:8443' }))).status).toBe(200)
      expect((await check(u, checkBody(s2, wallet, await payloadFor(u), { domain: 'app.axiom.example:443' }))).status).toBe(200)
      expect((await check(u, checkBody(s2, wallet, await payloadFor(u), { domain: 'app.axiom.example' }))).status).toBe(200)
    } finally {
      await s2.close()
    }
  })
})

describe('spent payloads survive a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axiom-ton-proof-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('a payload used before the restart is still refused after it, and the binding is kept', async () => {
    const dbPath = join(dir, 'axiom.db')
    const first = await startTestServer({ dbPath })
    const s = await first.login(7200)
    const wallet = devWalletKey(32)
    const payload = await payloadFor(s)
    const body = checkBody(first, wallet, payload)
    expect((await check(s, body)).status).toBe(200)
    await first.close()

    const second = await startTestServer({ dbPath })
    try {
      refused(await second.call('POST', '/wallet/ton-proof/check', { token: s.token, body }), 400, 'Invalid proof: Payload already used')
      expect((await second.call('GET', '/user/me', { token: s.token })).body.wallet_address).toBe(wallet.friendly)
    } finally {
      await second.close()
    }
  })
})
