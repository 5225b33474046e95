import { randomUUID } from 'node:crypto'
import { Address, beginCell, Cell, loadStateInit, storeStateInit } from '@ton/core'
import { Base64, hexToByteArray, SessionCrypto } from '@tonconnect/protocol'
import type { FastifyInstance } from 'fastify'
import { userDevWalletKey, type DevKey } from '../chain/dev-keys.ts'
import type { LocalChain, TransferMessage } from '../chain/local-chain.ts'
import type { Bridge, BridgeMessage } from './bridge.ts'
import { signTonProof } from './sign-ton-proof.ts'
import { devWalletPage } from './dev-wallet-page.ts'

/**
 * The AXIOM Dev Wallet: a TON Connect wallet (HTTP bridge kind) that lives in the local stack and
 * holds dev keys of the local chain: each Telegram user's own key when the connect request tells whose
 * it is (see `walletOwner`), else one dev key (`walletIndex`). The dapp opens its universal link
 * `{base}/dev-wallet?v=2&id=<dapp session pk>&r=<connect request JSON>`; the wallet answers over
 * the bridge (nacl.box via SessionCrypto): `connect` with ton_addr (+ ton_proof when asked) or
 * `connect_error` 300; `sendTransaction` is signed as a WalletContractV4 transfer into the chain and
 * answered `{ result: <boc of the external message> }`, or `{ error: { code: 300 } }` when rejected.
 * Each request waits on its page for an answer (Approve, Reject, or one of the failing answers
 * below), unless an auto mode is on (globally by option or AXIOM_DEV_WALLET_AUTO=<mode>, or per
 * connection with `auto=<mode>` in the link).
 *
 * Two modes play a real wallet's failures of the round trip, for the app's tests and for trying it under
 * `npm start` (the page's mode picker):
 * - `send-then-fail`: the transaction is signed and sent to the chain, then the dapp is answered with an
 *   error (code 0) as if nothing happened (ton-connect/sdk#340: approved in Tonkeeper, and the app says
 *   "Transaction was not sent" though the payment is on the chain);
 * - `silent`: the wallet never answers the transaction (ton-connect/sdk#449: an endless spinner).
 * And `fail`: an error (code 0) with nothing sent, the honest failure to compare with. Each of them
 * answers connection requests as `approve` does: they are about transactions.
 */

export type AutoMode = 'approve' | 'reject' | 'fail' | 'send-then-fail' | 'silent' | 'off'

/** How the wallet answers one request: as the user would (approve, reject), or failing as a wallet can. */
export type WalletAnswer = Exclude<AutoMode, 'off'>

/** Every answer, for the page's buttons and the API: what each does to a transaction. */
export const WALLET_ANSWERS: ReadonlyArray<{ readonly answer: WalletAnswer; readonly label: string; readonly says: string }> = [
  { answer: 'approve', label: 'Approve', says: 'signs, sends to the chain, answers with the message' },
  { answer: 'reject', label: 'Reject', says: 'the user declines: error 300' },
  { answer: 'fail', label: 'Fail', says: 'error 0, nothing sent' },
  { answer: 'send-then-fail', label: 'Send, then fail', says: 'sends to the chain, then answers error 0 (ton-connect/sdk#340)' },
  { answer: 'silent', label: 'Never answer', says: 'sends nothing and never answers (ton-connect/sdk#449)' },
]

const ANSWERS = new Set<string>(WALLET_ANSWERS.map((a) => a.answer))

/** An auto mode named in an option, a link or AXIOM_DEV_WALLET_AUTO ('1' is approve); null for anything else. */
export const autoModeOf = (value: string | null | undefined): AutoMode | null =>
  value === '1' ? 'approve' : value === 'off' ? 'off' : value && ANSWERS.has(value) ? (value as WalletAnswer) : null

export interface DevWalletOptions {
  readonly chain: LocalChain
  readonly bridge: Bridge
  /** This server's origin, e.g. http://127.0.0.1:8788 (links, bridge and icon URLs); a function when known only after listen. */
  readonly baseUrl: string | (() => string)
  /** Which dev wallet key (server/chain/dev-keys.ts) answers a connection of no known user. Default 0. */
  readonly walletIndex?: number
  /**
   * Whose connection it is, from the ton_proof payload of the connect request: the Telegram id of the
   * user the backend issued it to, or null. That user's own key (`userDevWalletKey`, funded on first
   * use) answers, so every user has their own wallet, as every person has their own wallet app.
   */
  readonly walletOwner?: (tonProofPayload: string) => string | null
  /** The chain id it reports: '-239' (mainnet id, default) or '-3'. TON Connect knows no other ids. */
  readonly network?: string
  readonly auto?: AutoMode
  /** Fetch the dapp's manifest (for its name and the ton_proof domain). Default true. */
  readonly fetchManifest?: boolean
}

export interface WalletsListEntry {
  readonly appName: string
  readonly name: string
  readonly imageUrl: string
  readonly aboutUrl: string
  readonly universalLink: string
  readonly bridgeUrl: string
  readonly platforms: ReadonlyArray<'ios' | 'android' | 'macos' | 'windows' | 'linux' | 'chrome' | 'firefox' | 'safari'>
}

interface Manifest {
  readonly url?: string
  readonly name?: string
  readonly iconUrl?: string
}

interface Session {
  readonly dappId: string
  /** The key that answers this connection. */
  key: DevKey
  /** The Telegram user it is for, when known. */
  owner: string | null
  readonly crypto: SessionCrypto
  readonly manifestUrl: string
  manifest: Manifest | null
  auto: AutoMode | null
  connected: boolean
  unsubscribe: () => void
}

interface ConnectItem {
  readonly name: string
  readonly payload?: string
}

export interface PendingRequest {
  readonly id: string
  readonly kind: 'connect' | 'transaction'
  readonly dappId: string
  readonly createdAt: number
  readonly app: { readonly name: string; readonly url: string }
  /** connect: the items asked for; transaction: the messages (address, amount, comment when it is one). */
  readonly details: unknown
}

interface Waiting extends PendingRequest {
  decide(answer: WalletAnswer): Promise<void>
}

const TX_ERROR = { UNKNOWN: 0, BAD_REQUEST: 1, USER_REJECTS: 300, METHOD_NOT_SUPPORTED: 400 } as const

const decodeComment = (payload: string | undefined): string | undefined => {
  if (!payload) return undefined
  try {
    const s = Cell.fromBase64(payload).beginParse()
    if (s.remainingBits >= 32 && s.loadUint(32) === 0) return s.loadStringTail()
  } catch {
    // not a comment
  }
  return undefined
}

/** The chain id the dev wallet reports unless configured: TON Connect's mainnet id. */
export const DEV_WALLET_DEFAULT_NETWORK = '-239'

/** How long auto mode waits before answering, as a person would. */
export const AUTO_ANSWER_DELAY_MS = 300

export class DevWallet {
  readonly key: DevKey
  readonly network: string
  auto: AutoMode
  /** How long auto mode waits before answering (a test sets a wallet that answers at once). */
  autoAnswerDelayMs = AUTO_ANSWER_DELAY_MS
  private readonly sessions = new Map<string, Session>()
  private readonly waiting = new Map<string, Waiting>()
  private readonly requestListeners = new Set<(r: PendingRequest) => void>()
  private nextEventId = 1

  constructor(private readonly options: DevWalletOptions) {
    this.key = options.chain.devWallet(options.walletIndex ?? 0)
    this.network = options.network ?? DEV_WALLET_DEFAULT_NETWORK
    this.auto = options.auto ?? autoModeOf(process.env.AXIOM_DEV_WALLET_AUTO) ?? 'off'
  }

  get baseUrl(): string {
    const b = this.options.baseUrl
    return typeof b === 'function' ? b() : b
  }

  get universalLink(): string {
    return `${this.baseUrl}/dev-wallet`
  }

  get bridgeUrl(): string {
    return `${this.baseUrl}/bridge`
  }

  /** The entry for TON Connect UI's `walletsListConfiguration.includeWallets`. */
  walletsListEntry(): WalletsListEntry {
    return {
      appName: 'axiom-dev-wallet',
      name: 'AXIOM Dev Wallet',
      imageUrl: `${this.baseUrl}/dev-wallet/icon.svg`,
      aboutUrl: `${this.baseUrl}/dev-wallet`,
      universalLink: this.universalLink,
      bridgeUrl: this.bridgeUrl,
      platforms: ['chrome', 'firefox', 'safari', 'linux', 'macos', 'windows', 'ios', 'android'],
    }
  }

  /** The same wallet in the wallets-v2.json format (for the SDK's `walletsListSource`). */
  walletsListDto() {
    const e = this.walletsListEntry()
    return [
      {
        app_name: e.appName,
        name: e.name,
        image: e.imageUrl,
        about_url: e.aboutUrl,
        universal_url: e.universalLink,
        bridge: [{ type: 'sse', url: e.bridgeUrl }],
        platforms: e.platforms,
        features: [{ name: 'SendTransaction', maxMessages: 4 }],
      },
    ]
  }

  /** The key that answers a connection of this Telegram user. */
  keyForUser(telegramId: string | number | bigint): DevKey {
    return userDevWalletKey(telegramId)
  }

  /** The ton_addr item this wallet answers with (with `key`: default the wallet's own). */
  tonAddr(key: DevKey = this.key) {
    return {
      name: 'ton_addr' as const,
      address: key.address,
      network: this.network,
      publicKey: key.keyPair.publicKey.toString('hex'),
      walletStateInit: beginCell().store(storeStateInit(key.wallet.init)).endCell().toBoc().toString('base64'),
    }
  }

  pending(): PendingRequest[] {
    return [...this.waiting.values()].map(({ decide: _d, ...r }) => r)
  }

  onRequest(listener: (r: PendingRequest) => void): () => void {
    this.requestListeners.add(listener)
    return () => this.requestListeners.delete(listener)
  }

  async approve(requestId: string): Promise<void> {
    await this.answer(requestId, 'approve')
  }

  async reject(requestId: string): Promise<void> {
    await this.answer(requestId, 'reject')
  }

  /** Answers a waiting request as `answer` says (a connection: approved unless rejected). */
  async answer(requestId: string, answer: WalletAnswer): Promise<void> {
    const w = this.waiting.get(requestId)
    if (!w) throw Object.assign(new Error(`No pending request ${requestId}`), { statusCode: 404 })
    this.waiting.delete(requestId)
    await w.decide(answer)
  }

  /** The connected dapps, each with the address that answers it and its Telegram user (when known). */
  connectedDapps(): Array<{
    dappId: string
    walletSessionId: string
    app: string
    auto: AutoMode | null
    address: string
    friendly: string
    user: string | null
  }> {
    return [...this.sessions.values()]
      .filter((s) => s.connected)
      .map((s) => ({
        dappId: s.dappId,
        walletSessionId: s.crypto.sessionId,
        app: s.manifest?.name ?? s.manifestUrl,
        auto: s.auto,
        address: s.key.address,
        friendly: s.key.friendly,
        user: s.owner,
      }))
  }

  /**
   * A connect link arrived (the page was opened with v, id, r; or a tc:// / universal link was pasted).
   * Returns the pending request, or null when it was decided at once (auto mode).
   */
  async handleConnectLink(params: URLSearchParams): Promise<{ requestId: string | null; error?: string }> {
    const dappId = (params.get('id') ?? '').toLowerCase()
    const r = params.get('r')
    if (!/^[0-9a-f]{64}$/.test(dappId) || !r) return { requestId: null, error: 'The link needs id (the app session key) and r (the connect request)' }
    let request: { manifestUrl?: unknown; items?: unknown }
    try {
      request = JSON.parse(r)
    } catch {
      return { requestId: null, error: 'r is not JSON' }
    }
    const items = Array.isArray(request.items) ? (request.items as ConnectItem[]) : []
    const manifestUrl = typeof request.manifestUrl === 'string' ? request.manifestUrl : ''
    const auto = autoModeOf(params.get('auto'))

    // A reload of the same link must not open a second session.
    for (const w of this.waiting.values()) if (w.kind === 'connect' && w.dappId === dappId) return { requestId: w.id }
    const existing = this.sessions.get(dappId)
    if (existing?.connected) return { requestId: null }

    const proofItem = items.find((i) => i.name === 'ton_proof')
    const owner = proofItem && typeof proofItem.payload === 'string' ? (this.options.walletOwner?.(proofItem.payload) ?? null) : null
    const session: Session = existing ?? {
      dappId,
      key: this.key,
      owner: null,
      crypto: new SessionCrypto(),
      manifestUrl,
      manifest: null,
      auto,
      connected: false,
      unsubscribe: () => undefined,
    }
    session.owner = owner
    session.key = owner === null ? this.key : this.keyForUser(owner)
    this.sessions.set(dappId, session)
    if (this.options.fetchManifest !== false) session.manifest = await this.loadManifest(manifestUrl)

    const app = this.appOf(session)
    const req: Waiting = {
      id: randomUUID(),
      kind: 'connect',
      dappId,
      createdAt: Math.floor(Date.now() / 1000),
      app,
      details: { items: items.map((i) => i.name), manifestUrl, address: session.key.friendly, user: owner },
      decide: async (answer) => {
        if (answer === 'reject') {
          this.send(session, { event: 'connect_error', id: this.nextEventId++, payload: { code: 300, message: 'User declined the connection' } })
          this.sessions.delete(dappId)
          return
        }
        const key = session.key
        if (key !== this.key) await this.options.chain.fund(key)
        const replyItems: unknown[] = [this.tonAddr(key)]
        if (proofItem && typeof proofItem.payload === 'string') {
          replyItems.push({
            name: 'ton_proof',
            proof: signTonProof({
              address: key.wallet.address,
              secretKey: key.keyPair.secretKey,
              domain: this.proofDomain(session),
              payload: proofItem.payload,
            }),
          })
        }
        session.connected = true
        session.unsubscribe = this.options.bridge.subscribe(session.crypto.sessionId, (m) => void this.onDappMessage(session, m))
        this.send(session, {
          event: 'connect',
          id: this.nextEventId++,
          payload: {
            items: replyItems,
            device: {
              platform: 'linux',
              appName: 'axiom-dev-wallet',
              appVersion: '1.0.0',
              maxProtocolVersion: 2,
              features: ['SendTransaction', { name: 'SendTransaction', maxMessages: 4 }],
            },
          },
        })
      },
    }
    return this.enqueue(session, req)
  }

  private async enqueue(session: Session, req: Waiting): Promise<{ requestId: string | null }> {
    const mode = session.auto ?? this.auto
    if (mode !== 'off') {
      // A person takes a moment to answer; the SDK registers its request only after the bridge took
      // it, so an answer in the same instant can arrive before the dapp is listening for it.
      await new Promise((resolve) => setTimeout(resolve, this.autoAnswerDelayMs))
      await req.decide(mode)
      return { requestId: null }
    }
    this.waiting.set(req.id, req)
    const { decide: _d, ...view } = req
    for (const l of [...this.requestListeners]) l(view)
    return { requestId: req.id }
  }

  private appOf(session: Session) {
    let url = session.manifest?.url ?? ''
    if (!url) {
      try {
        url = new URL(session.manifestUrl).origin
      } catch {
        url = session.manifestUrl
      }
    }
    return { name: session.manifest?.name ?? url, url }
  }

  /** The domain a ton_proof names: the manifest's url host (as wallets do), else the manifest URL's host. */
  private proofDomain(session: Session): string {
    for (const u of [session.manifest?.url, session.manifestUrl]) {
      try {
        if (u) return new URL(u).host
      } catch {
        // next
      }
    }
    return 'localhost'
  }

  private async loadManifest(url: string): Promise<Manifest | null> {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) })
      if (!res.ok) return null
      const m = (await res.json()) as Manifest
      return typeof m === 'object' && m ? m : null
    } catch {
      return null
    }
  }

  private send(session: Session, payload: unknown) {
    const encrypted = session.crypto.encrypt(JSON.stringify(payload), hexToByteArray(session.dappId))
    this.options.bridge.publish(session.crypto.sessionId, session.dappId, Base64.encode(encrypted), 300)
  }

  private async onDappMessage(session: Session, m: BridgeMessage) {
    if (m.from !== session.dappId) return
    let request: { method?: string; params?: unknown[]; id?: string | number }
    try {
      request = JSON.parse(session.crypto.decrypt(Base64.decode(m.message).toUint8Array(), hexToByteArray(m.from)))
    } catch {
      return
    }
    const id = String(request.id ?? '')
    const answerError = (code: number, message: string) => this.send(session, { id, error: { code, message } })
    if (request.method === 'disconnect') {
      this.send(session, { id, result: {} })
      this.dropSession(session)
      return
    }
    if (request.method !== 'sendTransaction') return answerError(TX_ERROR.METHOD_NOT_SUPPORTED, `Method ${request.method} is not supported`)

    let tx: { valid_until?: number; network?: string; from?: string; messages?: Array<{ address: string; amount: string; payload?: string; stateInit?: string }> }
    try {
      tx = JSON.parse(String(request.params?.[0]))
    } catch {
      return answerError(TX_ERROR.BAD_REQUEST, 'Request is not JSON')
    }
    const messages = Array.isArray(tx.messages) ? tx.messages : []
    if (messages.length === 0 || messages.length > 4) return answerError(TX_ERROR.BAD_REQUEST, 'A transaction has 1 to 4 messages')
    if (tx.network && tx.network !== this.network) return answerError(TX_ERROR.BAD_REQUEST, `Wrong network ${tx.network}`)
    if (tx.from) {
      try {
        if (!Address.parse(tx.from).equals(session.key.wallet.address)) return answerError(TX_ERROR.BAD_REQUEST, 'from is not this wallet')
      } catch {
        return answerError(TX_ERROR.BAD_REQUEST, 'Invalid from')
      }
    }
    let transfer: TransferMessage[]
    try {
      transfer = messages.map((msg) => {
        const friendly = Address.isFriendly(msg.address) ? Address.parseFriendly(msg.address) : null
        if (!/^\d+$/.test(String(msg.amount))) throw new Error('amount must be nanotons')
        return {
          to: Address.parse(msg.address),
          value: BigInt(msg.amount),
          body: msg.payload ? Cell.fromBase64(msg.payload) : null,
          init: msg.stateInit ? loadStateInit(Cell.fromBase64(msg.stateInit).beginParse()) : null,
          bounce: friendly ? friendly.isBounceable : true,
        }
      })
    } catch (e) {
      return answerError(TX_ERROR.BAD_REQUEST, e instanceof Error ? e.message : 'Bad message')
    }

    const req: Waiting = {
      id: randomUUID(),
      kind: 'transaction',
      dappId: session.dappId,
      createdAt: Math.floor(Date.now() / 1000),
      app: this.appOf(session),
      details: {
        validUntil: tx.valid_until ?? null,
        messages: messages.map((msg) => ({ address: msg.address, amount: msg.amount, comment: decodeComment(msg.payload) ?? null })),
        from: session.key.friendly,
      },
      decide: async (answer) => {
        if (answer === 'reject') return answerError(TX_ERROR.USER_REJECTS, 'User declined the transaction')
        // The wallet lost the request: no answer ever reaches the dapp, and nothing is sent.
        if (answer === 'silent') return
        if (answer === 'fail') return answerError(TX_ERROR.UNKNOWN, 'The wallet failed to send the transaction')
        if (tx.valid_until && tx.valid_until < Math.floor(Date.now() / 1000)) return answerError(TX_ERROR.BAD_REQUEST, 'Request expired (validUntil)')
        try {
          const chain = this.options.chain
          const key = session.key
          // Answered once the chain accepts the message, as a wallet answers once it has broadcast it (on
          // the clocked chain its block comes later); the key's next transfer waits for that block.
          // `send-then-fail` sends it all the same and answers an error: the dapp is told of a failure
          // while its payment is on the chain.
          let answered = false
          await chain.withKey(key, async () => {
            const ext = await chain.signedTransfer(key, transfer, { ...(tx.valid_until ? { validUntil: tx.valid_until } : {}) })
            const accepted = await chain.accept(ext)
            answered = true
            if (answer === 'send-then-fail') answerError(TX_ERROR.UNKNOWN, 'Unknown error')
            else this.send(session, { id, result: ext.toBoc().toString('base64') })
            await accepted.included.catch(() => undefined)
          })
          if (!answered) throw new Error('The chain refused the transaction')
        } catch (e) {
          answerError(TX_ERROR.UNKNOWN, e instanceof Error ? e.message.split('\n')[0]! : 'The chain refused the transaction')
        }
      },
    }
    await this.enqueue(session, req)
  }

  private dropSession(session: Session) {
    session.unsubscribe()
    this.sessions.delete(session.dappId)
    for (const [k, w] of this.waiting) if (w.dappId === session.dappId) this.waiting.delete(k)
  }

  /** Tells every connected dapp the wallet disconnected, and forgets them. */
  disconnectAll(): void {
    for (const s of [...this.sessions.values()]) {
      if (s.connected) this.send(s, { event: 'disconnect', id: this.nextEventId++, payload: {} })
      this.dropSession(s)
    }
  }

  close(): void {
    for (const s of this.sessions.values()) s.unsubscribe()
    this.sessions.clear()
    this.waiting.clear()
  }

  /** The page and its JSON API under `prefix` (default /dev-wallet), and the wallets list. */
  register(app: FastifyInstance, prefix = '/dev-wallet'): void {
    app.get(prefix, async (req, reply) => {
      const params = new URLSearchParams(req.url.split('?')[1] ?? '')
      let notice = ''
      if (params.has('id') && params.has('r')) {
        const r = await this.handleConnectLink(params)
        notice = r.error ?? (r.requestId ? '' : 'Connection answered.')
      }
      return reply.type('text/html; charset=utf-8').send(devWalletPage({ prefix, notice, answers: WALLET_ANSWERS }))
    })
    app.get(`${prefix}/icon.svg`, async (_req, reply) =>
      reply
        .type('image/svg+xml')
        .send(
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1d2a44"/><path d="M32 12 50 48H14z" fill="none" stroke="#4fd1c5" stroke-width="5"/><circle cx="32" cy="38" r="5" fill="#f6c453"/></svg>',
        ),
    )
    app.get(`${prefix}/wallets.json`, async () => this.walletsListDto())
    app.get(`${prefix}/api/state`, async () => ({
      wallet: {
        address: this.key.address,
        friendly: this.key.friendly,
        network: this.network,
        balance: (await this.options.chain.balance(this.key.address)).toString(),
      },
      auto: this.auto,
      requests: this.pending(),
      connections: this.connectedDapps(),
    }))
    app.post<{ Params: { id: string; action: string } }>(`${prefix}/api/requests/:id/:action`, async (req, reply) => {
      const { id, action } = req.params
      if (!ANSWERS.has(action)) return reply.code(404).send({ msg: 'Unknown action' })
      if (!this.waiting.has(id)) return reply.code(404).send({ msg: 'No such pending request' })
      await this.answer(id, action as WalletAnswer)
      return { ok: true }
    })
    app.post<{ Body: { link?: string } }>(`${prefix}/api/connect`, async (req, reply) => {
      const link = typeof req.body?.link === 'string' ? req.body.link.trim() : ''
      const q = link.includes('?') ? link.slice(link.indexOf('?') + 1) : ''
      const r = await this.handleConnectLink(new URLSearchParams(q))
      if (r.error) return reply.code(400).send({ msg: r.error })
      return r
    })
    app.post<{ Body: { mode?: string } }>(`${prefix}/api/auto`, async (req, reply) => {
      const mode = autoModeOf(req.body?.mode)
      if (mode === null || req.body?.mode === '1') return reply.code(422).send({ msg: `mode must be one of ${[...ANSWERS].join(', ')} or off` })
      this.auto = mode
      return { auto: this.auto }
    })
    app.post(`${prefix}/api/disconnect`, async () => {
      this.disconnectAll()
      return { ok: true }
    })
  }
}
