import { createHash } from 'node:crypto'
import {
  Address,
  beginCell,
  Cell,
  external,
  internal,
  loadMessage,
  SendMode,
  storeMessage,
  type Message,
  type StateInit,
} from '@ton/core'
import { Blockchain, createShardAccount, type BlockchainTransaction, type SendMessageResult } from '@ton/sandbox'
import {
  DEFAULT_DEV_WALLET_BALANCE,
  DEFAULT_DEV_WALLETS,
  DEFAULT_TREASURY_BALANCE,
  DEFAULT_FAUCET_BALANCE,
  devWalletKey,
  faucetKey,
  treasuryKey,
  type DevKey,
} from './dev-keys.ts'

export interface LocalChainOptions {
  /** How many funded dev wallets (index 0…n-1, see dev-keys.ts). Default 3. */
  readonly devWallets?: number
  readonly devWalletBalance?: bigint
  readonly treasuryBalance?: bigint
  /**
   * 0 (the default): each accepted message is one block at once (deterministic, for tests). Above 0:
   * a block every this many ms (mainnet's cadence since Catchain 2.0 is about 400 ms), holding every
   * message accepted since the last one: a message is checked (emulated) when it arrives, `pending`
   * on the stream, and lands in the next block (`confirmed`), `finalized` FINALITY_BLOCKS later.
   */
  readonly blockIntervalMs?: number
  /** Blocks after the one holding a trace when it is finalized (clocked chain only; default FINALITY_BLOCKS). */
  readonly finalityBlocks?: number
}

/**
 * A trace (all the transactions one inbound message caused) as the Streaming API v2 reports it
 * (docs.ton.org/ecosystem/api/toncenter/streaming/overview, "Finality model"): `pending` when the
 * external message is accepted (an emulation, not in a block), `confirmed` in a block, `finalized`
 * after; or invalidated before it is finalized. `hashNorm` is the external message's normalized hash
 * (base64), the stream's `trace_external_hash_norm`.
 */
export type TraceEvent =
  | { readonly type: 'trace'; readonly finality: 'pending' | 'confirmed' | 'finalized'; readonly hashNorm: string; readonly txs: ReadonlyArray<ChainTx> }
  | { readonly type: 'trace_invalidated'; readonly hashNorm: string }

export type TraceListener = (e: TraceEvent) => void

/** Blocks between a trace's block and its finality on the clocked chain (two 400 ms blocks: about mainnet's 1 s). */
export const FINALITY_BLOCKS = 2

/** A message the chain accepted: its trace's hash, and the result once it is in a block (rejects if it never lands). */
export interface Accepted {
  readonly hashNorm: string
  readonly included: Promise<SendMessageResult>
}

/** One transaction the chain executed, with the local block it landed in (0: emulated, in no block yet). */
export interface ChainTx {
  readonly block: number
  readonly address: Address
  readonly tx: BlockchainTransaction
}

export type TransactionsListener = (txs: ReadonlyArray<ChainTx>) => void | Promise<void>

export interface TransferMessage {
  readonly to: Address | string
  readonly value: bigint
  readonly body?: Cell | null
  readonly init?: StateInit | null
  /** Default: false (a dev payout or refund should reach an undeployed wallet too). */
  readonly bounce?: boolean
}

/** A text comment body: op 0 and the UTF-8 text. */
export const commentCell = (text: string): Cell => beginCell().storeUint(0, 32).storeStringTail(text).endCell()

/** The text of a comment body (op 0), or null for any other body. */
export const readComment = (body: Cell | null | undefined): string | null => {
  if (!body) return null
  try {
    const s = body.beginParse()
    if (s.remainingBits < 32) return null
    if (s.loadUint(32) !== 0) return null
    return s.loadStringTail()
  } catch {
    return null
  }
}

/** The account a transaction ran on: its inbound message's destination (all local accounts are on workchain 0). */
const accountOf = (tx: BlockchainTransaction): Address => {
  const dest = tx.inMessage?.info.dest
  if (dest instanceof Address) return dest
  return Address.parseRaw(`0:${tx.address.toString(16).padStart(64, '0')}`)
}

/**
 * The normalized hash of a message (TON's, as the Streaming API's `trace_external_hash_norm`, base64):
 * for an external inbound message, ext_in_msg_info with no source and no import fee, no state init,
 * the body in a reference; any other message, its cell's hash.
 */
export const traceHashNorm = (m: Message): string => {
  if (m.info.type !== 'external-in') return beginCell().store(storeMessage(m)).endCell().hash().toString('base64')
  return beginCell()
    .store(storeMessage({ info: { type: 'external-in', dest: m.info.dest, importFee: 0n }, init: null, body: m.body }, { forceRef: true }))
    .endCell()
    .hash()
    .toString('base64')
}

interface Waiting {
  readonly message: Cell | Message
  readonly hashNorm: string
  readonly resolve: (r: SendMessageResult) => void
  readonly reject: (e: unknown) => void
  readonly included: Promise<SendMessageResult>
}

export const blockHashOf = (seqno: number, kind: 'root' | 'file') =>
  createHash('sha256').update(`axiom-local-ton:${kind}:${seqno}`).digest('base64')

/**
 * The offline TON chain: an @ton/sandbox Blockchain with the treasury and the funded dev wallets
 * (WalletContractV4 r2 at fixed addresses). Every message goes through `accept` (or `send`, which
 * waits for its block), one at a time. Per-message (the default), each accepted message is one local
 * block at once; clocked (`blockIntervalMs`), a block comes every interval with the messages accepted
 * since. Listeners (the payment watcher) see every block's transactions; trace listeners (the
 * Streaming API) each trace's finality as it moves.
 */
export class LocalChain {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly listeners = new Set<TransactionsListener>()
  private readonly traceListeners = new Set<TraceListener>()
  private readonly log: ChainTx[] = []
  private seqno = 1
  private blockTime = Math.floor(Date.now() / 1000)
  /** Accepted, not in a block yet (clocked chain). */
  private mempool: Waiting[] = []
  /** Traces in a block, not finalized yet: the block each landed in (clocked chain). */
  private unfinal: Array<{ readonly block: number; readonly hashNorm: string; readonly txs: ChainTx[] }> = []
  private clock: ReturnType<typeof setInterval> | null = null

  private constructor(
    readonly blockchain: Blockchain,
    readonly treasury: DevKey,
    readonly devWallets: ReadonlyArray<DevKey>,
    /** 0: a block per message; else the ms between blocks. */
    readonly blockIntervalMs: number,
    private readonly finalityBlocks: number,
  ) {
    if (blockIntervalMs > 0) {
      this.clock = setInterval(() => void this.sealBlock(), blockIntervalMs)
      this.clock.unref()
    }
  }

  static async create(options: LocalChainOptions = {}): Promise<LocalChain> {
    const blockchain = await Blockchain.create()
    const treasury = treasuryKey()
    const count = options.devWallets ?? DEFAULT_DEV_WALLETS
    const devWallets = Array.from({ length: count }, (_, i) => devWalletKey(i))
    const deploy = async (key: DevKey, balance: bigint) =>
      blockchain.setShardAccount(
        key.wallet.address,
        createShardAccount({ address: key.wallet.address, code: key.wallet.init.code, data: key.wallet.init.data, balance }),
      )
    await deploy(treasury, options.treasuryBalance ?? DEFAULT_TREASURY_BALANCE)
    await deploy(faucetKey(), DEFAULT_FAUCET_BALANCE)
    for (const w of devWallets) await deploy(w, options.devWalletBalance ?? DEFAULT_DEV_WALLET_BALANCE)
    return new LocalChain(blockchain, treasury, devWallets, Math.max(0, options.blockIntervalMs ?? 0), Math.max(0, options.finalityBlocks ?? FINALITY_BLOCKS))
  }

  /** Stops the block clock (what is still waiting for a block is refused). */
  stop(): void {
    if (this.clock) clearInterval(this.clock)
    this.clock = null
    for (const w of this.mempool.splice(0)) w.reject(new Error('the local chain stopped'))
  }

  /** Each trace's finality as it moves (pending, confirmed, finalized) and its invalidation: the Streaming API's source. */
  onTrace(listener: TraceListener): () => void {
    this.traceListeners.add(listener)
    return () => this.traceListeners.delete(listener)
  }

  private emit(e: TraceEvent): void {
    for (const l of [...this.traceListeners]) {
      try {
        l(e)
      } catch {
        // A subscriber's failure is its own.
      }
    }
  }

  /**
   * Takes back a trace still waiting for its block, as a chain does when a pending message is not
   * taken into a block after all: it is dropped, its senders' `included` rejects, and the stream says
   * `trace_invalidated`. Answers whether it was waiting (a trace in a block is not taken back here).
   */
  invalidatePending(hashNorm: string): boolean {
    const at = this.mempool.findIndex((w) => w.hashNorm === hashNorm)
    if (at < 0) return false
    const [w] = this.mempool.splice(at, 1)
    w!.reject(new Error('the message was not taken into a block'))
    this.emit({ type: 'trace_invalidated', hashNorm })
    return true
  }

  /** The latest local block. */
  get lastBlock() {
    return {
      seqno: this.seqno,
      workchain: -1,
      shard: '-9223372036854775808',
      rootHash: blockHashOf(this.seqno, 'root'),
      fileHash: blockHashOf(this.seqno, 'file'),
      now: this.blockTime,
    }
  }

  devWallet(index: number): DevKey {
    const w = this.devWallets[index]
    if (!w) throw new Error(`No dev wallet #${index} (the chain has ${this.devWallets.length})`)
    return w
  }

  onTransactions(listener: TransactionsListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Every transaction the chain ran on `address`, oldest first. */
  transactionsOf(address: Address | string): ChainTx[] {
    const a = typeof address === 'string' ? Address.parse(address) : address
    return this.log.filter((t) => t.address.equals(a))
  }

  /** The transactions of one local block. */
  transactionsIn(block: number): ChainTx[] {
    return this.log.filter((t) => t.block === block)
  }

  async balance(address: Address | string): Promise<bigint> {
    const a = typeof address === 'string' ? Address.parse(address) : address
    return this.exclusive(async () => (await this.blockchain.getContract(a)).balance)
  }

  /**
   * Deploys `key`'s wallet with `balance` unless its account already exists (a user's own dev wallet,
   * on first use). Answers whether it did. Like the dev wallets at start, the coins come from nowhere:
   * the treasury's balance is untouched.
   */
  async fund(key: DevKey, balance: bigint = DEFAULT_DEV_WALLET_BALANCE): Promise<boolean> {
    return this.exclusive(async () => {
      const c = await this.blockchain.getContract(key.wallet.address)
      if (c.accountState?.type === 'active' || c.balance > 0n) return false
      await this.blockchain.setShardAccount(
        key.wallet.address,
        createShardAccount({ address: key.wallet.address, code: key.wallet.init.code, data: key.wallet.init.data, balance }),
      )
      return true
    })
  }

  /** Runs `fn` alone against the sandbox (sends and reads never interleave). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn)
    this.queue = run.catch(() => undefined)
    return run
  }

  /**
   * Sends an external (or internal) message into the chain and waits for the block it lands in (its
   * whole message tree), after the listeners have seen the block's transactions. A message the wallet
   * refuses (bad signature, seqno, expired) rejects.
   */
  async send(message: Cell | Message): Promise<SendMessageResult> {
    return (await this.accept(message)).included
  }

  /**
   * Accepts a message as a node does an external one: it runs now against the chain's state (the
   * emulation the stream reports as `pending`); one the wallet refuses rejects here. On the clocked
   * chain it then waits for the next block (`included`); per message, it is its own block at once.
   */
  async accept(message: Cell | Message): Promise<Accepted> {
    const msg = message instanceof Cell ? loadMessage(message.beginParse()) : message
    const hashNorm = traceHashNorm(msg)
    if (this.blockIntervalMs === 0) {
      const { result, txs } = await this.exclusive(async () => {
        const result = await this.blockchain.sendMessage(message)
        this.seqno += 1
        this.blockTime = Math.floor(Date.now() / 1000)
        const txs: ChainTx[] = result.transactions.map((tx) => ({ block: this.seqno, address: accountOf(tx), tx }))
        this.log.push(...txs)
        return { result, txs }
      })
      for (const finality of ['pending', 'confirmed', 'finalized'] as const) this.emit({ type: 'trace', finality, hashNorm, txs })
      for (const l of [...this.listeners]) await l(txs)
      return { hashNorm, included: Promise.resolve(result) }
    }
    const waiting = this.mempool.find((w) => w.hashNorm === hashNorm)
    // The same message again (a resend) waits for the same block.
    if (waiting) return { hashNorm, included: waiting.included }
    const emulated = await this.exclusive(async () => {
      const snap = this.blockchain.snapshot()
      try {
        return await this.blockchain.sendMessage(message)
      } finally {
        await this.blockchain.loadFrom(snap)
      }
    })
    let resolve!: (r: SendMessageResult) => void
    let reject!: (e: unknown) => void
    const included = new Promise<SendMessageResult>((res, rej) => {
      resolve = res
      reject = rej
    })
    // Handled here: a sender that does not wait for the block (the v4 /send) must not leave it unhandled.
    included.catch(() => undefined)
    this.mempool.push({ message, hashNorm, resolve, reject, included })
    this.emit({ type: 'trace', finality: 'pending', hashNorm, txs: emulated.transactions.map((tx) => ({ block: 0, address: accountOf(tx), tx })) })
    return { hashNorm, included }
  }

  /** A block now, as the clock makes one (a test that needs the block to come after something it waits for). */
  sealNow(): Promise<void> {
    return this.sealBlock()
  }

  /** The clocked chain's block: every message accepted since the last one, in order; then the traces it finalizes. */
  private async sealBlock(): Promise<void> {
    const landed: Array<{ w: Waiting; result?: SendMessageResult; error?: unknown; txs: ChainTx[] }> = []
    await this.exclusive(async () => {
      const batch = this.mempool.splice(0)
      this.seqno += 1
      this.blockTime = Math.floor(Date.now() / 1000)
      for (const w of batch) {
        try {
          const result = await this.blockchain.sendMessage(w.message)
          const txs: ChainTx[] = result.transactions.map((tx) => ({ block: this.seqno, address: accountOf(tx), tx }))
          this.log.push(...txs)
          landed.push({ w, result, txs })
        } catch (error) {
          // Accepted when it arrived, refused in the block (its seqno was used meanwhile): taken back.
          landed.push({ w, error, txs: [] })
        }
      }
    })
    const block = this.seqno
    for (const l of landed) {
      if (l.result) {
        this.unfinal.push({ block, hashNorm: l.w.hashNorm, txs: l.txs })
        this.emit({ type: 'trace', finality: 'confirmed', hashNorm: l.w.hashNorm, txs: l.txs })
      } else this.emit({ type: 'trace_invalidated', hashNorm: l.w.hashNorm })
    }
    const due = this.unfinal.filter((u) => u.block + this.finalityBlocks <= block)
    this.unfinal = this.unfinal.filter((u) => u.block + this.finalityBlocks > block)
    for (const u of due) this.emit({ type: 'trace', finality: 'finalized', hashNorm: u.hashNorm, txs: u.txs })
    const all = landed.flatMap((l) => l.txs)
    if (all.length > 0) {
      for (const listener of [...this.listeners]) {
        try {
          await listener(all)
        } catch {
          // A listener's failure is its own (the watcher logs its own).
        }
      }
    }
    for (const l of landed) {
      if (l.result) l.w.resolve(l.result)
      else l.w.reject(l.error)
    }
  }

  /** Sends `amount` local test TON from the faucet to `to` (non-bounceable: an undeployed wallet gets it too). */
  async faucet(to: Address | string, amount: bigint): Promise<SendMessageResult> {
    return this.transfer(faucetKey(), [{ to, value: amount, bounce: false }])
  }

  async seqnoOf(key: DevKey): Promise<number> {
    return this.exclusive(async () => {
      const c = await this.blockchain.getContract(key.wallet.address)
      if (c.accountState?.type !== 'active') return 0
      const r = await c.get('seqno')
      return r.stackReader.readNumber()
    })
  }

  /** The signed external message a wallet app would send: a WalletContractV4 transfer by `key`. */
  async signedTransfer(
    key: DevKey,
    messages: ReadonlyArray<TransferMessage>,
    options: { validUntil?: number; sendMode?: SendMode } = {},
  ): Promise<Cell> {
    const seqno = await this.seqnoOf(key)
    const body = key.wallet.createTransfer({
      seqno,
      secretKey: key.keyPair.secretKey,
      sendMode: options.sendMode ?? SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      // By the chain's clock, which a test may have moved (the sandbox's `now`).
      timeout: options.validUntil ?? (this.blockchain.now ?? Math.floor(Date.now() / 1000)) + 60,
      messages: messages.map((m) =>
        internal({
          to: typeof m.to === 'string' ? Address.parse(m.to) : m.to,
          value: m.value,
          bounce: m.bounce ?? false,
          body: m.body ?? undefined,
          init: m.init ?? undefined,
        }),
      ),
    })
    const ext = external({ to: key.wallet.address, init: seqno === 0 ? key.wallet.init : undefined, body })
    return beginCell().store(storeMessage(ext)).endCell()
  }

  /**
   * Signs and sends a transfer from one of the chain's keys (treasury payouts, refunds, tests).
   * `sendMode` as the wallet app chooses it (default: fees paid separately, errors ignored; 0 takes
   * the forward fee out of the value, as @ton/ton's sendTransfer and some wallets and exchanges do).
   */
  async transfer(
    key: DevKey,
    messages: ReadonlyArray<TransferMessage>,
    options: { validUntil?: number; sendMode?: SendMode } = {},
  ): Promise<SendMessageResult> {
    // The seqno read and the send must not interleave with another transfer by the same key.
    return this.withKey(key, async () => this.send(await this.signedTransfer(key, messages, options)))
  }

  private readonly keyLocks = new Map<string, Promise<unknown>>()
  withKey<T>(key: DevKey, fn: () => Promise<T>): Promise<T> {
    const prev = this.keyLocks.get(key.address) ?? Promise.resolve()
    const run = prev.then(fn, fn)
    this.keyLocks.set(
      key.address,
      run.catch(() => undefined),
    )
    return run
  }
}
