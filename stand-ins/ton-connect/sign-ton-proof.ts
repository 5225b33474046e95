import { createHash } from 'node:crypto'
import type { Address } from '@ton/core'
import { sign } from '@ton/crypto'
import { tonProofMessage, type TonProofDomain } from '../../server/main.ts'

/** A wallet's side: the proof for `payload` on `domain`, signed by its Ed25519 secret key. */
export const signTonProof = (args: {
  address: Address
  secretKey: Buffer
  domain: string
  payload: string
  timestamp?: number
}): { timestamp: number; domain: TonProofDomain; payload: string; signature: string } => {
  const timestamp = args.timestamp ?? Math.floor(Date.now() / 1000)
  const full = tonProofMessage(args.address, args.domain, timestamp, args.payload)
  const signature = sign(createHash('sha256').update(full).digest(), args.secretKey)
  return {
    timestamp,
    domain: { lengthBytes: Buffer.byteLength(args.domain, 'utf8'), value: args.domain },
    payload: args.payload,
    signature: signature.toString('base64'),
  }
}
