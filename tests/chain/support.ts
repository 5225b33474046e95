import { createHash } from 'node:crypto'
import { toNano } from '@ton/core'
import { keyPairFromSeed } from '@ton/crypto'
import { WalletContractV5R1 } from '@ton/ton'
import Fastify from 'fastify'
import { LocalChain } from '../../stand-ins/chain/local-chain.ts'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.ts'
import { registerV4Routes } from '../../stand-ins/chain/v4-api.ts'
import { attachLocalTon, type LocalTon, type LocalTonOptions } from '../../stand-ins/local-ton.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { startTestServer, type TestServer } from '../server/support.ts'

export interface Stack {
  readonly ts: TestServer
  readonly ton: LocalTon
  close(): Promise<void>
}

/** Mainnet's block interval since Catchain 2.0 (ms): the local chain's clock in the chain suites, as under `npm start`. */
export const MAINNET_BLOCK_MS = 400

/**
 * The reference backend (in-memory db, a movable clock set to the real time so the sandbox's
 * clock and the server's agree) with the local TON stack attached on a random port. The chain makes
 * a block every 400 ms and the watcher listens to its Streaming API, as `npm start` runs them: a test
 * waits for what it checks, never for an instant block. `blockIntervalMs: 0` (a block per message, at
 * once, each waking the watcher) is for a test that needs a block at a moment it chooses, and says why.
 */
export const startStack = async (options: LocalTonOptions = {}): Promise<Stack> => {
  const ts = await startTestServer({ treasuryAddress: localTreasuryAddress() })
  ts.clock.now = Math.floor(Date.now() / 1000)
  const ton = await attachLocalTon(ts.server, {
    port: 0,
    payoutIntervalMs: 0,
    heartbeatMs: 200,
    autoApprove: 'off',
    blockIntervalMs: MAINNET_BLOCK_MS,
    stream: true,
    ...options,
  })
  return {
    ts,
    ton,
    close: async () => {
      await ton.close()
      await ts.close()
    },
  }
}

/** Polls `fn` until it returns a truthy value (or throws after `timeoutMs`). */
export const eventually = async <T>(fn: () => T | Promise<T>, timeoutMs = 5000, stepMs = 20): Promise<NonNullable<T>> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v as NonNullable<T>
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, stepMs))
  }
}

/** The SDK's IStorage, in memory. */
export const memoryStorage = () => {
  const m = new Map<string, string>()
  return {
    setItem: async (k: string, v: string) => void m.set(k, v),
    getItem: async (k: string) => m.get(k) ?? null,
    removeItem: async (k: string) => void m.delete(k),
  }
}

/** The v4 API over a chain of a test's own, on a random port. */
export const serveV4 = async (chain: LocalChain): Promise<{ url: string; close(): Promise<void>; readonly served: ReadonlyArray<string> }> => {
  const app = Fastify({ logger: false })
  const served: string[] = []
  app.addHook('onRequest', async (req) => void served.push(`${req.method} ${req.url.split('?')[0]}`))
  registerV4Routes(app, chain)
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url, served, close: () => app.close() }
}

/**
 * A backend on the local chain's treasury, its clock at the wall's, and the chain's v4 API behind a
 * fault proxy: the backend's chain service is pointed at `proxy.url` by the test.
 */
export const backendWithV4BehindProxy = async (
  options: Parameters<typeof startTestServer>[0] = {},
): Promise<{ ts: TestServer; chain: LocalChain; v4: Awaited<ReturnType<typeof serveV4>>; proxy: FaultProxy }> => {
  const ts = await startTestServer({ treasuryAddress: localTreasuryAddress(), ...options })
  ts.clock.now = Math.floor(Date.now() / 1000)
  const chain = await LocalChain.create({ devWallets: 3 })
  const v4 = await serveV4(chain)
  const proxy = await startFaultProxy(v4.url)
  return { ts, chain, v4, proxy }
}

/**
 * A backend whose treasury is a W5 (v5r1) wallet, production's default, made from `seed`: funded with
 * 100 TON on a fresh local chain but not deployed (as after `npm run treasury:new` and a faucet), the
 * chain service started on it with no timers (a test drives its passes with `chain()!.settle()`).
 */
export const startW5TreasuryStack = async (seed: string) => {
  const keyPair = keyPairFromSeed(createHash('sha256').update(seed).digest())
  const w5 = WalletContractV5R1.create({ publicKey: keyPair.publicKey, walletId: { networkGlobalId: -239 } })
  const ts = await startTestServer({ treasuryAddress: w5.address.toRawString() })
  ts.clock.now = Math.floor(Date.now() / 1000)
  const chain = await LocalChain.create({ devWallets: 3 })
  const v4 = await serveV4(chain)
  await chain.faucet(w5.address, toNano('100'))
  await ts.server.startChain({ endpoint: v4.url, treasury: { version: 'v5r1', keyPair, wallet: w5 }, fromStart: true, pollMs: 0, payoutMs: 0 })
  return { ts, chain, v4, w5 }
}
