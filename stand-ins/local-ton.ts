import { Address, toNano } from '@ton/core'
import Fastify, { type FastifyInstance } from 'fastify'
import { randomBytes } from 'node:crypto'
import { createTonProofService, type ChainService, type PaymentRecord, type RunningServer, type TonProofService } from '../server/main.ts'
import { localTreasuryAddress, sameAddress } from './chain/dev-keys.ts'
import { LocalChain } from './chain/local-chain.ts'
import { registerV4Routes } from './chain/v4-api.ts'
import { registerStreamingRoutes, STREAM_SSE_PATH, type StreamingApi } from './chain/streaming-api.ts'
import { Bridge } from './ton-connect/bridge.ts'
import { autoModeOf, DevWallet, type AutoMode, type WalletsListEntry } from './ton-connect/dev-wallet.ts'

export { localTreasuryAddress } from './chain/dev-keys.ts'

/** What POST /faucet sends when no amount is asked, and the most it sends at once (TON). */
export const DEFAULT_FAUCET_TON = 10
export const MAX_FAUCET_TON = 1000

/** The default port of the local TON server (v4 API, bridge, dev wallet, tonProof). */
export const DEFAULT_LOCAL_TON_PORT = 8788

/** What attachLocalTon needs of the reference backend: the hooks of its programmatic entry (server/main.ts). */
export type BackendHandle = Pick<
  RunningServer,
  | 'url'
  | 'treasuryAddress'
  | 'now'
  | 'bondPayment'
  | 'readChainCursor'
  | 'advanceChainCursor'
  | 'creditBondPayment'
  | 'payouts'
  | 'tonProofRequesters'
  | 'lease'
  | 'startChain'
>

/** The backend's watcher, as the local stack shows it. */
export interface LocalWatcher {
  /** What this instance's watcher decided, oldest first (the database has every instance's: GET /chain/payments). */
  readonly records: ReadonlyArray<PaymentRecord>
  /** Runs the watcher, the payouts (refunds among them) and the watcher again, and waits for them. */
  idle(): Promise<void>
}

/** One outgoing payment after a payout pass. */
export interface PayoutRecord {
  readonly id: bigint
  readonly kind: 'sale' | 'refund' | 'sweep'
  readonly withdrawalId: bigint | null
  readonly address: string
  readonly amountNano: bigint
  /**
   * completed: paid on the chain; sending: signed and sent, not yet seen; retry: to be signed anew;
   * failed: for the operator; cancelled: a cold sweep that did not land (reckoned anew).
   */
  readonly outcome: 'completed' | 'sending' | 'retry' | 'failed' | 'cancelled'
  readonly txHash?: string
}

export interface LocalPayouts {
  /** One payout pass of the backend now; answers what it sent and where each stands after it. */
  processOnce(): Promise<PayoutRecord[]>
}

export interface LocalTonOptions {
  /** 0 picks a free port (tests). Default DEFAULT_LOCAL_TON_PORT. */
  readonly port?: number
  readonly host?: string
  /** Funded dev wallets on the chain (default 3). */
  readonly devWallets?: number
  /** Which dev wallet answers a connection of no known user (default 0); each user who connects through the app gets their own. */
  readonly walletIndex?: number
  /** The chain id the dev wallet reports (default '-239'). */
  readonly network?: string
  /** Dev wallet auto-approve (default: AXIOM_DEV_WALLET_AUTO, else off). */
  readonly autoApprove?: AutoMode
  readonly heartbeatMs?: number
  /** Pending sales are paid every this many ms (default 1000; 0: only payouts.processOnce()). */
  readonly payoutIntervalMs?: number
  /** The watcher reads the treasury's history every this many ms besides each new block (default 1000; 0: on new blocks only). */
  readonly watchIntervalMs?: number
  /** Refunds (and sales) are sent: false leaves the queue unsent (payoutIntervalMs 0 and nothing run). */
  readonly refunds?: boolean
  /** tonProof domain allow-list (default: localhost, 127.0.0.1, and AXIOM_TON_PROOF_DOMAINS, comma-separated). */
  readonly tonProofDomains?: ReadonlyArray<string>
  /** Where the served /tonconnect-manifest.json says the app lives (default this server's URL). */
  readonly appUrl?: string
  /**
   * A block every this many ms (mainnet's 400 ms; `npm start`'s default, AXIOM_TON_BLOCK_MS), or 0, the
   * default: a block per message, at once, and each wakes the watcher (deterministic tests).
   */
  readonly blockIntervalMs?: number
  /**
   * The backend's watcher listens to this server's Streaming API (AXIOM_TON_STREAM, as live): woken by
   * each trace event, and the app told of a payment seen. Default false (`npm start`: on).
   */
  readonly stream?: boolean
  /** Another Streaming API SSE endpoint for the watcher (a test's own stream), instead of this server's. */
  readonly streamUrl?: string
}

export interface LocalTon {
  /** http://host:port of the local TON server. */
  readonly url: string
  readonly port: number
  /** TonClient4 endpoint (the v4 routes are at the root). */
  readonly v4Endpoint: string
  /** The second v4 API over the same chain, which confirms every payment the watcher acts on (AXIOM_TON_API_CONFIRM). */
  readonly v4ConfirmEndpoint: string
  /** The Streaming API v2's SSE endpoint over this chain (AXIOM_TON_STREAM). */
  readonly streamUrl: string
  readonly streaming: StreamingApi
  readonly bridgeUrl: string
  readonly walletsListUrl: string
  readonly manifestUrl: string
  readonly treasuryAddress: string
  readonly chain: LocalChain
  readonly bridge: Bridge
  readonly devWallet: DevWallet
  readonly watcher: LocalWatcher
  readonly payouts: LocalPayouts
  /** The backend's chain service, on this chain's v4 API. */
  readonly service: ChainService
  readonly tonProof: TonProofService
  readonly app: FastifyInstance
  /** The entry for TON Connect UI's walletsListConfiguration.includeWallets. */
  readonly walletsListEntry: WalletsListEntry
  close(): Promise<void>
}

/** Where the local stack serves its second v4 API, the watcher's confirming endpoint. */
export const CONFIRM_PREFIX = '/confirm'

const json = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)))

/**
 * Starts the offline TON stand-ins next to a running reference backend, on their own port (the
 * backend's Fastify is already listening, and Fastify takes no routes after listen): the
 * @ton/sandbox chain with its v4 API and faucet, the TON Connect bridge, the dev wallet and the
 * tonProof routes; then starts the backend's own watcher and payouts (RunningServer.startChain) on
 * this v4 API, with the local treasury's key.
 * The backend must use the local treasury: startServer({ treasuryAddress: localTreasuryAddress() }).
 */
export const attachLocalTon = async (backend: BackendHandle, options: LocalTonOptions = {}): Promise<LocalTon> => {
  const treasuryAddress = localTreasuryAddress()
  if (!sameAddress(backend.treasuryAddress, treasuryAddress)) {
    throw new Error(
      `The backend's treasury ${backend.treasuryAddress} is not the local chain's ${treasuryAddress}: ` +
        `start it with treasuryAddress: localTreasuryAddress() (stand-ins/chain/dev-keys.ts), or AXIOM_TREASURY=${treasuryAddress}`,
    )
  }
  const chain = await LocalChain.create({
    ...(options.devWallets !== undefined ? { devWallets: options.devWallets } : {}),
    ...(options.blockIntervalMs !== undefined ? { blockIntervalMs: options.blockIntervalMs } : {}),
  })
  const host = options.host ?? '127.0.0.1'
  // Fastify takes no routes after listen, and the links need the port: they read `url` when used.
  let url = ''
  const server = Fastify({ logger: false, bodyLimit: 1024 * 1024 })
  server.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body))
  server.addHook('onRequest', async (req, reply) => {
    reply.header('Access-Control-Allow-Origin', '*')
    reply.header('Access-Control-Allow-Headers', '*')
    reply.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
    if (req.method === 'OPTIONS') return reply.code(204).send()
  })

  const bridge = new Bridge({ ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}) })
  const devWallet = new DevWallet({
    chain,
    bridge,
    baseUrl: () => url,
    // Each user's own wallet: the backend knows whom it issued a connect request's ton_proof payload to.
    walletOwner: backend.tonProofRequesters(),
    ...(options.walletIndex !== undefined ? { walletIndex: options.walletIndex } : {}),
    ...(options.network !== undefined ? { network: options.network } : {}),
    ...(options.autoApprove !== undefined ? { auto: options.autoApprove } : {}),
  })
  const envDomains = (process.env.AXIOM_TON_PROOF_DOMAINS ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  const tonProof = createTonProofService({
    // Its own payloads only: the backend's wallet binding issues and checks its own.
    secret: randomBytes(32).toString('hex'),
    allowedDomains: options.tonProofDomains ?? ['localhost', '127.0.0.1', ...envDomains],
    now: backend.now,
  })

  registerV4Routes(server, chain)
  const streaming = registerStreamingRoutes(server, chain)
  // The confirming endpoint (AXIOM_TON_API_CONFIRM): a second v4 API over the same chain, as a second
  // provider or the operator's own node is live, so the watcher's confirmation runs under npm start too.
  await server.register(async (scoped) => registerV4Routes(scoped, chain), { prefix: CONFIRM_PREFIX })
  bridge.register(server, '/bridge')
  devWallet.register(server, '/dev-wallet')
  tonProof.register(server, '/ton-proof')
  server.get('/tonconnect-manifest.json', async () => ({
    url: options.appUrl ?? url,
    name: 'AXIOM (local)',
    iconUrl: `${url}/dev-wallet/icon.svg`,
  }))
  server.post<{ Body: { address?: unknown; amount?: unknown } }>('/faucet', async (req, reply) => {
    const body = (typeof req.body === 'string' ? JSON.parse(req.body || '{}') : (req.body ?? {})) as { address?: unknown; amount?: unknown }
    let to: Address
    try {
      to = Address.parse(String(body.address ?? ''))
    } catch {
      return reply.code(400).send({ error: 'address must be a TON address' })
    }
    const amountText = body.amount === undefined ? String(DEFAULT_FAUCET_TON) : String(body.amount)
    if (!/^\d{1,4}(\.\d{1,9})?$/.test(amountText) || toNano(amountText) === 0n || toNano(amountText) > toNano(MAX_FAUCET_TON)) {
      return reply.code(400).send({ error: `amount must be TON above 0 and at most ${MAX_FAUCET_TON}` })
    }
    await chain.faucet(to, toNano(amountText))
    return { sent: amountText, to: to.toRawString() }
  })
  server.get('/wallets-v2.json', async () => devWallet.walletsListDto())
  server.get('/chain/info', async () =>
    json({
      treasury: { address: chain.treasury.address, friendly: chain.treasury.friendly, balance: await chain.balance(chain.treasury.address) },
      devWallets: await Promise.all(
        chain.devWallets.map(async (w, index) => ({ index, address: w.address, friendly: w.friendly, seed: w.seedText, balance: await chain.balance(w.address) })),
      ),
      connections: devWallet.connectedDapps().map(({ app, address, friendly, user }) => ({ app, address, friendly, user })),
      lastBlock: chain.lastBlock,
      backend: backend.url,
    }),
  )
  // Filled once the backend's chain service runs (after listen: it reads this server's v4 API).
  let service: ChainService | null = null
  let payouts: LocalPayouts | null = null
  server.get('/chain/payments', async (_req, reply) => (service ? json(await service.records()) : reply.code(503).send({ error: 'starting' })))
  server.get('/chain/payouts', async (_req, reply) => (service ? json(await service.outgoing()) : reply.code(503).send({ error: 'starting' })))
  server.post('/chain/payouts/run', async (_req, reply) => (payouts ? json(await payouts.processOnce()) : reply.code(503).send({ error: 'starting' })))

  let offBlocks: () => void = () => undefined
  const stopAll = () => {
    offBlocks()
    streaming.dropAll()
    chain.stop()
    devWallet.close()
    bridge.close()
  }
  try {
    await server.listen({ port: options.port ?? DEFAULT_LOCAL_TON_PORT, host })
  } catch (e) {
    stopAll()
    throw e
  }
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_LOCAL_TON_PORT)
  // Links must be reachable from a browser: a wildcard listen address is shown as 127.0.0.1.
  url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`

  // The backend's watcher and payouts (server/chain/), on this chain's v4 API like on any other: one of
  // each among the backend's instances, on its leases. A new block wakes the watcher at once (a real
  // node is polled; here the wait would only slow the tests and the emulator down).
  const svc = await backend
    .startChain({
      endpoint: url,
      confirmEndpoint: `${url}${CONFIRM_PREFIX}`,
      treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
      fromStart: true,
      pollMs: options.watchIntervalMs ?? 1000,
      payoutMs: options.refunds === false ? 0 : (options.payoutIntervalMs ?? 1000),
      ...(options.streamUrl ? { stream: { url: options.streamUrl } } : options.stream ? { stream: { url: `${url}${STREAM_SSE_PATH}` } } : {}),
    })
    .catch(async (e: unknown) => {
      stopAll()
      await server.close()
      throw e
    })
  service = svc
  // Per message, each block wakes the watcher at once (deterministic tests). The clocked chain does
  // not: as live, the watcher hears of a block through the stream (options.stream) or its poll.
  if (chain.blockIntervalMs === 0) {
    offBlocks = chain.onTransactions(async (txs) => {
      if (txs.some((t) => t.address.equals(chain.treasury.wallet.address))) await svc.watcher.pass()
    })
  }
  const localPayouts: LocalPayouts = {
    processOnce: async () => {
      if (options.refunds === false) return []
      const sent = await svc.payouts.pass()
      const now = new Map((await svc.outgoing()).map((r) => [r.id, r]))
      return sent.map((r) => {
        const at = now.get(r.id) ?? r
        const outcome = at.state === 'paid' ? 'completed' : at.state === 'queued' ? 'retry' : at.state
        return {
          id: r.id,
          kind: r.kind,
          withdrawalId: r.withdrawalId,
          address: r.to,
          amountNano: r.amountNano,
          outcome,
          ...(at.paidTxHash ? { txHash: at.paidTxHash } : {}),
        }
      })
    },
  }
  payouts = localPayouts
  const watcher: LocalWatcher = {
    records: svc.watcher.decided,
    idle: async () => {
      await svc.watcher.pass()
      if (options.refunds !== false) await svc.payouts.pass()
      await svc.watcher.pass()
    },
  }

  return {
    url,
    port,
    v4Endpoint: url,
    v4ConfirmEndpoint: `${url}${CONFIRM_PREFIX}`,
    streamUrl: `${url}${STREAM_SSE_PATH}`,
    streaming,
    bridgeUrl: devWallet.bridgeUrl,
    walletsListUrl: `${url}/wallets-v2.json`,
    manifestUrl: `${url}/tonconnect-manifest.json`,
    treasuryAddress,
    chain,
    bridge,
    devWallet,
    watcher,
    payouts: localPayouts,
    service: svc,
    tonProof,
    app: server,
    walletsListEntry: devWallet.walletsListEntry(),
    close: async () => {
      stopAll()
      await server.close()
    },
  }
}

/** The local TON options from the environment (docs/local-stack.md). */
export const localTonOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env): LocalTonOptions => {
  const auto = env.AXIOM_DEV_WALLET_AUTO
  return {
    port: env.AXIOM_TON_PORT ? Number(env.AXIOM_TON_PORT) : DEFAULT_LOCAL_TON_PORT,
    host: env.AXIOM_TON_HOST ?? env.HOST ?? '127.0.0.1',
    ...(env.AXIOM_DEV_WALLET_INDEX ? { walletIndex: Number(env.AXIOM_DEV_WALLET_INDEX) } : {}),
    ...(env.AXIOM_TON_NETWORK ? { network: env.AXIOM_TON_NETWORK } : {}),
    // approve (or 1), reject, fail, send-then-fail or silent: dev-wallet.ts's modes.
    ...(autoModeOf(auto) ? { autoApprove: autoModeOf(auto)! } : {}),
    ...(env.AXIOM_APP_URL ? { appUrl: env.AXIOM_APP_URL } : {}),
    // A block every AXIOM_TON_BLOCK_MS ms (npm start: 400, mainnet's); unset or 0, a block per message.
    ...(env.AXIOM_TON_BLOCK_MS && Number(env.AXIOM_TON_BLOCK_MS) > 0 ? { blockIntervalMs: Number(env.AXIOM_TON_BLOCK_MS) } : {}),
    // The watcher listens to the local Streaming API unless AXIOM_LOCAL_TON_STREAM=0 (then it polls only).
    stream: env.AXIOM_LOCAL_TON_STREAM !== '0',
  }
}

/** Prints where everything is (npm run server / npm start). */
export const printLocalTon = (ton: LocalTon): void => {
  const lines = [
    `AXIOM local TON on ${ton.url}`,
    `  v4 API (TonClient4 endpoint)  ${ton.v4Endpoint}`,
    `  v4 API, confirming (2nd)     ${ton.v4ConfirmEndpoint}`,
    `  Streaming API v2 (SSE)        POST ${ton.streamUrl}  (${ton.chain.blockIntervalMs > 0 ? `a block every ${ton.chain.blockIntervalMs} ms` : 'a block per message'})`,
    `  TON Connect bridge            ${ton.bridgeUrl}`,
    `  dev wallet page               ${ton.devWallet.universalLink}  (each Telegram user gets their own wallet; default ${ton.devWallet.key.friendly}; auto-approve ${ton.devWallet.auto})`,
    `  wallets list                  ${ton.walletsListUrl}`,
    `  tonProof                      ${ton.url}/ton-proof/payload, ${ton.url}/ton-proof/check`,
    `  faucet (local test TON)       POST ${ton.url}/faucet {"address": "…", "amount": "10"}`,
    `  treasury                      ${ton.treasuryAddress}`,
    `  chain info                    ${ton.url}/chain/info`,
  ]
  console.log(lines.join('\n'))
}
