import { createHmac } from 'node:crypto'
import type { ServerContext } from '../domain/context.ts'
import { createTonProofService, type SpentPayloads, type TonProofService } from './ton-proof.ts'

/** The tonProof key: derived from the JWT secret, so one secret runs the server and a leaked payload key is not the token key. */
export const tonProofSecret = (jwtSecret: string): string => createHmac('sha256', jwtSecret).update('axiom:ton-proof:v1').digest('hex')

/** The payloads the service sees as spent: the one being checked, when the database says so (domain/wallets.ts, `isPayloadSpent`). */
const spentOnly = (spent: ReadonlySet<string>): SpentPayloads => ({ has: (p) => spent.has(p), add: () => undefined, prune: () => undefined })

/** The backend's tonProof service: payloads bound to a user id (the `subject`), domains from config. */
export const walletProofService = (ctx: ServerContext, spent: ReadonlySet<string> = new Set()): TonProofService =>
  createTonProofService({
    secret: tonProofSecret(ctx.config.jwtSecret),
    allowedDomains: ctx.config.tonProofDomains,
    networks: ctx.config.tonProofNetworks,
    ...(ctx.chainPublicKey ? { publicKeyOf: ctx.chainPublicKey } : {}),
    now: ctx.now,
    spent: spentOnly(spent),
  })
