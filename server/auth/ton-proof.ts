import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { Address, Cell, contractAddress, loadStateInit, type StateInit } from '@ton/core'
import { signVerify } from '@ton/crypto'
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton'
import type { FastifyInstance } from 'fastify'

/**
 * tonProof (TON Connect's proof of wallet ownership), the backend's side:
 * - the message a wallet signs (`tonProofMessage`; the dev wallet's signing is
 *   stand-ins/ton-connect/sign-ton-proof.ts);
 * - the service: a signed, expiring, single-use payload (`issue`) and the checks (`verify`), in the
 *   order STACK-NOTES gives: payload, domain allow-list, timestamp freshness, public key from the
 *   walletStateInit, address derived from the stateInit = the claimed one, Ed25519 over
 *   sha256(0xffff ‖ "ton-connect" ‖ sha256("ton-proof-item-v2/" ‖ wc ‖ hash ‖ len ‖ domain ‖ ts ‖ payload)).
 */

export interface TonProofDomain {
  readonly lengthBytes: number
  readonly value: string
}

export interface TonProof {
  readonly timestamp: number
  readonly domain: TonProofDomain
  readonly payload: string
  /** base64 */
  readonly signature: string
  /** base64 BOC of the wallet's StateInit (the connect reply's ton_addr.walletStateInit). */
  readonly state_init: string
}

export interface TonProofCheck {
  readonly address: string
  readonly network?: string
  /** hex; if given it must equal the key in the stateInit. */
  readonly public_key?: string
  readonly proof: TonProof
}

/** The bytes a wallet signs for a proof (before its own sha256): 0xffff ‖ "ton-connect" ‖ sha256(message). */
export const tonProofMessage = (address: Address, domain: string, timestamp: number, payload: string): Buffer => {
  const wc = Buffer.alloc(4)
  wc.writeInt32BE(address.workChain)
  const domainBytes = Buffer.from(domain, 'utf8')
  const len = Buffer.alloc(4)
  len.writeUInt32LE(domainBytes.length)
  const ts = Buffer.alloc(8)
  ts.writeBigUInt64LE(BigInt(timestamp))
  const message = Buffer.concat([Buffer.from('ton-proof-item-v2/'), wc, address.hash, len, domainBytes, ts, Buffer.from(payload)])
  return Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from('ton-connect'), createHash('sha256').update(message).digest()])
}

const KNOWN_WALLET_CODES = (() => {
  const key = Buffer.alloc(32)
  const hex = (c: Cell) => c.hash().toString('hex')
  return {
    v3r2: hex(WalletContractV3R2.create({ workchain: 0, publicKey: key }).init.code),
    v4r2: hex(WalletContractV4.create({ workchain: 0, publicKey: key }).init.code),
    v5r1: hex(WalletContractV5R1.create({ workchain: 0, publicKey: key }).init.code),
  }
})()

/**
 * The Ed25519 public key stored in a wallet's StateInit data, for the standard wallets:
 * V3R2 and V4R2 data = seqno(32) subwallet(32) pubkey(256) …; V5R1 = signature_allowed(1) seqno(32) wallet_id(32) pubkey(256) ….
 * Null for an unknown contract.
 */
export const publicKeyFromStateInit = (init: StateInit): Buffer | null => {
  if (!init.code || !init.data) return null
  const code = init.code.hash().toString('hex')
  const s = init.data.beginParse()
  try {
    if (code === KNOWN_WALLET_CODES.v4r2 || code === KNOWN_WALLET_CODES.v3r2) {
      s.skip(64)
      return s.loadBuffer(32)
    }
    if (code === KNOWN_WALLET_CODES.v5r1) {
      s.skip(1 + 32 + 32)
      return s.loadBuffer(32)
    }
  } catch {
    return null
  }
  return null
}

export interface TonProofServiceOptions {
  /** HMAC key for payloads (the server secret). */
  readonly secret: string
  /** Domains a proof may name: a host (`localhost:5173`) or a bare hostname (`localhost`, any port). */
  readonly allowedDomains: ReadonlyArray<string>
  /** How long an issued payload may be used (s), default 900. */
  readonly payloadTtlS?: number
  /** How old a proof's timestamp may be (s), default 300 (5 minutes); also the allowed clock skew ahead. */
  readonly maxAgeS?: number
  /** Networks accepted when the check names one; default ['-239', '-3']. */
  readonly networks?: ReadonlyArray<string>
  readonly now?: () => number
  /**
   * Where spent payloads are remembered until they expire (default: in memory). A backend that must
   * refuse a replay across restarts passes a store over its database.
   */
  readonly spent?: SpentPayloads
  /**
   * For a wallet whose state init this service cannot read the key from (v4r1, say): the key the
   * contract at that address answers to `get_public_key` on the chain, or null. Used by verifyAsync.
   */
  readonly publicKeyOf?: (address: Address) => Promise<Buffer | null>
}

/** Payloads already verified, each kept until its expiry (unix seconds). */
export interface SpentPayloads {
  has(payload: string): boolean
  add(payload: string, expiresAt: number): void
  /** Forgets the entries that expired before `now`. */
  prune(now: number): void
}

export const memorySpentPayloads = (): SpentPayloads => {
  const used = new Map<string, number>()
  return {
    has: (p) => used.has(p),
    add: (p, exp) => void used.set(p, exp),
    prune: (now) => {
      for (const [k, exp] of used) if (exp < now) used.delete(k)
    },
  }
}

export type TonProofResult = { readonly valid: true; readonly address: string; readonly publicKey: string } | { readonly valid: false; readonly msg: string }

/** The payload problems (unknown, expired, already used): the caller must fetch a new payload. */
export const PAYLOAD_ERRORS: ReadonlySet<string> = new Set(['Unknown payload', 'Payload expired', 'Payload already used'])

export interface TonProofService {
  /**
   * A fresh payload: hex(nonce 8 ‖ expiry u32 BE ‖ HMAC-SHA256(secret, nonce ‖ expiry [‖ 0x00 ‖ subject])[0..16]) — 56 chars.
   * With a `subject` (e.g. the user id) the payload verifies only for that same subject.
   */
  issue(subject?: string): string
  /**
   * Checks a proof; a payload issued for a subject needs the same `subject` here. A valid proof spends
   * its payload unless `keepPayload` is set, for a caller that spends it (`spend`) only once it has
   * acted on the proof.
   */
  verify(check: TonProofCheck, subject?: string, keepPayload?: boolean): TonProofResult
  /** verify, and for a contract of unknown code the `get_public_key` fallback (options.publicKeyOf). */
  verifyAsync(check: TonProofCheck, subject?: string, keepPayload?: boolean): Promise<TonProofResult>
  /** Spends a verified payload, so that it is never accepted again. */
  spend(payload: string): void
  /** POST `${prefix}/payload` → { payload }; POST `${prefix}/check` → { valid: true, address } | 4xx { msg }. */
  register(app: FastifyInstance, prefix?: string): void
}

const fail = (msg: string): TonProofResult => ({ valid: false, msg })
const UNSUPPORTED = 'Unsupported wallet contract'

/** `localhost:5173`, `[::1]:5173` have a port; `localhost`, `[::1]` do not. */
const hasPort = (host: string) => (host.startsWith('[') ? /\]:\d+$/.test(host) : host.includes(':'))

export const createTonProofService = (options: TonProofServiceOptions): TonProofService => {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000))
  const ttl = options.payloadTtlS ?? 900
  const maxAge = options.maxAgeS ?? 300
  const networks = options.networks ?? ['-239', '-3']
  const used = options.spent ?? memorySpentPayloads()
  const mac = (body: Buffer, subject: string | undefined) => {
    const h = createHmac('sha256', `ton-proof:${options.secret}`).update(body)
    if (subject !== undefined) h.update(Buffer.concat([Buffer.from([0]), Buffer.from(subject, 'utf8')]))
    return h.digest().subarray(0, 16)
  }

  const payloadOk = (payload: string, subject: string | undefined): string | null => {
    if (!/^[0-9a-f]{56}$/.test(payload)) return 'Unknown payload'
    const raw = Buffer.from(payload, 'hex')
    const body = raw.subarray(0, 12)
    if (!timingSafeEqual(raw.subarray(12), mac(body, subject))) return 'Unknown payload'
    if (body.readUInt32BE(8) < now()) return 'Payload expired'
    if (used.has(payload)) return 'Payload already used'
    return null
  }

  const allowed = options.allowedDomains.map((d) => d.trim().toLowerCase()).filter(Boolean)
  /** An entry with a port must match the proof's host exactly; a bare hostname matches it on any port. */
  const domainOk = (domain: string) => {
    const host = domain.toLowerCase()
    const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]
    return allowed.some((d) => d === host || (!hasPort(d) && d === hostname))
  }

  const spend = (payload: string) => {
    used.prune(now())
    used.add(payload, Buffer.from(payload, 'hex').readUInt32BE(8))
  }

  const verify = (check: TonProofCheck, subject?: string, keepPayload = false, chainKey: Buffer | null = null): TonProofResult => {
    const p = check?.proof
    if (!p || typeof p !== 'object') return fail('proof is required')
    if (typeof check.address !== 'string') return fail('address is required')
    if (typeof p.payload !== 'string' || typeof p.signature !== 'string' || typeof p.state_init !== 'string') {
      return fail('proof.payload, proof.signature and proof.state_init are required')
    }
    if (!p.domain || typeof p.domain.value !== 'string' || typeof p.domain.lengthBytes !== 'number') return fail('proof.domain is required')
    if (!Number.isInteger(p.timestamp)) return fail('proof.timestamp is required')
    if (check.network !== undefined && !networks.includes(String(check.network))) return fail(`Network ${check.network} is not accepted`)
    // A service of one network (production) must hear which network the proof is for.
    if (check.network === undefined && networks.length === 1) return fail(`The proof must name its network (${networks[0]})`)

    // 1. The payload is one we issued, unexpired and unused.
    const payloadError = payloadOk(p.payload, subject)
    if (payloadError) return fail(payloadError)
    // 2. Domain allow-list.
    if (Buffer.byteLength(p.domain.value, 'utf8') !== p.domain.lengthBytes) return fail('Domain length mismatch')
    if (!domainOk(p.domain.value)) return fail(`Domain ${p.domain.value} is not allowed`)
    // 3. Timestamp freshness.
    const age = now() - p.timestamp
    if (age > maxAge) return fail('Proof is too old')
    if (age < -maxAge) return fail('Proof is from the future')
    // 4. Public key from the stateInit.
    let init: StateInit
    try {
      init = loadStateInit(Cell.fromBase64(p.state_init).beginParse())
    } catch {
      return fail('Invalid state_init')
    }
    // The chain's answer is only asked for a contract whose code is not known here; step 5 then holds
    // the state init to the claimed address, whose contract gave that key.
    const publicKey = publicKeyFromStateInit(init) ?? chainKey
    if (!publicKey) return fail(UNSUPPORTED)
    if (check.public_key !== undefined && check.public_key.toLowerCase() !== publicKey.toString('hex')) {
      return fail('public_key does not match the state_init')
    }
    // 5. The address the stateInit deploys to is the claimed one.
    let address: Address
    try {
      address = Address.parse(check.address)
    } catch {
      return fail('Invalid address')
    }
    if (!contractAddress(address.workChain, init).equals(address)) return fail('Address does not match the state_init')
    // 6. Ed25519 over the spec's message.
    let signature: Buffer
    try {
      signature = Buffer.from(p.signature, 'base64')
    } catch {
      return fail('Invalid signature')
    }
    if (signature.length !== 64) return fail('Invalid signature')
    const hash = createHash('sha256').update(tonProofMessage(address, p.domain.value, p.timestamp, p.payload)).digest()
    if (!signVerify(hash, signature, publicKey)) return fail('Invalid signature')
    // Single use: a verified payload is spent (a forged attempt does not burn it).
    if (!keepPayload) spend(p.payload)
    return { valid: true, address: address.toRawString(), publicKey: publicKey.toString('hex') }
  }

  const verifyAsync = async (check: TonProofCheck, subject?: string, keepPayload = false): Promise<TonProofResult> => {
    const first = verify(check, subject, keepPayload)
    if (first.valid || first.msg !== UNSUPPORTED || !options.publicKeyOf) return first
    let address: Address
    try {
      address = Address.parse(check.address)
    } catch {
      return first
    }
    const key = await options.publicKeyOf(address).catch(() => null)
    return key && key.length === 32 ? verify(check, subject, keepPayload, key) : first
  }

  return {
    verifyAsync,
    issue: (subject) => {
      const body = Buffer.alloc(12)
      randomBytes(8).copy(body)
      body.writeUInt32BE(now() + ttl, 8)
      return Buffer.concat([body, mac(body, subject)]).toString('hex')
    },
    verify: (check, subject, keepPayload) => verify(check, subject, keepPayload),
    spend,
    register(app, prefix = '/ton-proof') {
      app.post(`${prefix}/payload`, async () => ({ payload: this.issue() }))
      app.post(`${prefix}/check`, async (req, reply) => {
        const r = verify((req.body ?? {}) as TonProofCheck)
        if (!r.valid) return reply.code(PAYLOAD_ERRORS.has(r.msg) ? 401 : 400).send({ msg: r.msg })
        return r
      })
    },
  }
}
