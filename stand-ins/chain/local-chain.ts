import { createHash } from 'node:crypto'
import {
  Address,
  beginCell,
  Cell,
  external,
  internal,
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
}

/** One transaction the chain executed, with the local "block" (one per accepted message) it landed in. */
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

export const blockHashOf = (seqno: number, kind: 'root' | 'file') =>
  createHash('sha256').update(`axiom-local-ton:${kind}:${seqno}`).digest('base64')

/**
 * The offline TON chain: an @ton/sandbox Blockchain with the treasury and the funded dev wallets
 * (WalletContractV4 r2 at fixed addresses). Every message goes through `send`, one at a time; each
 * accepted message is one local block. Listeners (the payment watcher) see every transaction.
 */
export class LocalChain {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly listeners = new Set<TransactionsListener>()
  private readonly log: ChainTx[] = []
  private seqno = 1
  private blockTime = Math.floor(Date.now() / 1000)

  private constructor(
    readonly blockchain: Blockchain,
    readonly treasury: DevKey,
    readonly devWallets: ReadonlyArray<DevKey>,
  ) {}

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
    return new LocalChain(blockchain, treasury, devWallets)
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
   * Sends an external (or internal) message into the chain, waits for the whole message tree, then
   * lets the listeners see the transactions. A message the wallet refuses (bad signature, seqno,
   * expired) rejects.
   */
  async send(message: Cell | Message): Promise<SendMessageResult> {
    const { result, txs } = await this.exclusive(async () => {
      const result = await this.blockchain.sendMessage(message)
      this.seqno += 1
      this.blockTime = Math.floor(Date.now() / 1000)
      const txs: ChainTx[] = result.transactions.map((tx) => ({
        block: this.seqno,
        address: accountOf(tx),
        tx,
      }))
      this.log.push(...txs)
      return { result, txs }
    })
    for (const l of [...this.listeners]) await l(txs)
    return result
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
