import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { bindWallet, isPayloadSpent, rememberPayload } from '../domain/wallets.ts'
import { walletProofService } from '../auth/wallet-proof.ts'
import { httpError } from '../http/errors.ts'
import { bodyFields, stringField, type Fields } from '../http/params.ts'
import type { TonProofCheck } from '../auth/ton-proof.ts'

const MAX_STATE_INIT_CHARS = 16 * 1024

const objectField = (fields: Fields, name: string, label = name): Fields => {
  const v = fields[name]
  if (v === undefined || v === null) throw httpError(422, `${label} is required`)
  if (typeof v !== 'object' || Array.isArray(v)) throw httpError(422, `${label} must be an object`)
  return v as Fields
}

const wholeField = (fields: Fields, name: string, label: string): number => {
  const v = fields[name]
  if (v === undefined || v === null) throw httpError(422, `${label} is required`)
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw httpError(422, `${label} must be a whole number`)
  return v
}

const textField = (fields: Fields, name: string, label: string, maxLength: number): string => {
  const v = fields[name]
  if (typeof v !== 'string' || v === '') throw httpError(422, `${label} is required`)
  if (v.length > maxLength) throw httpError(422, `${label} is too long`)
  return v
}

/** The check body (TON Connect's ton_addr + ton_proof): shape errors are 422, naming the field. */
const checkOf = (body: unknown): TonProofCheck & { network?: string } => {
  const f = bodyFields(body)
  const address = stringField(f, 'address', 100)
  const network = f.network === undefined || f.network === null ? undefined : typeof f.network === 'number' || typeof f.network === 'string' ? String(f.network) : null
  if (network === null) throw httpError(422, 'network must be a chain id such as "-239"')
  const publicKey = f.public_key === undefined || f.public_key === null ? undefined : f.public_key
  if (publicKey !== undefined && (typeof publicKey !== 'string' || !/^[0-9a-fA-F]{64}$/.test(publicKey)))
    throw httpError(422, 'public_key must be 64 hex characters')
  const p = objectField(f, 'proof')
  const domain = objectField(p, 'domain', 'proof.domain')
  return {
    address,
    ...(network !== undefined ? { network } : {}),
    ...(publicKey !== undefined ? { public_key: publicKey } : {}),
    proof: {
      timestamp: wholeField(p, 'timestamp', 'proof.timestamp'),
      domain: {
        lengthBytes: wholeField(domain, 'lengthBytes', 'proof.domain.lengthBytes'),
        value: textField(domain, 'value', 'proof.domain.value', 253),
      },
      payload: textField(p, 'payload', 'proof.payload', 200),
      signature: textField(p, 'signature', 'proof.signature', 200),
      state_init: textField(p, 'state_init', 'proof.state_init', MAX_STATE_INIT_CHARS),
    },
  }
}

/**
 * Wallet binding by tonProof (docs/api.md): a payload bound to the signed-in user, then the wallet's
 * proof over it; a verified wallet is stored on the user. Proof failures are 400 (never 401, which the
 * client reads as "signed out").
 */
export const walletRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  const proofs = walletProofService(ctx)

  app.post('/wallet/ton-proof/payload', async (req) => {
    const payload = proofs.issue(String(req.userId))
    await rememberPayload(ctx, payload, req.userId)
    return { payload }
  })

  app.post('/wallet/ton-proof/check', async (req) => {
    const check = checkOf(req.body)
    const spent = (await isPayloadSpent(ctx, check.proof.payload)) ? new Set([check.proof.payload]) : new Set<string>()
    const r = await walletProofService(ctx, spent).verifyAsync(check, String(req.userId), true)
    if (!r.valid) throw httpError(400, `Invalid proof: ${r.msg}`)
    // Spent with the binding: a refused bind (409) leaves the payload usable.
    const wallet_address = await bindWallet(ctx, req.userId, r.address, check.network ?? null, check.proof.payload)
    return { wallet_address }
  })
}
