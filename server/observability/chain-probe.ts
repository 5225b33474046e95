import { Address } from '@ton/core'
import type { TonClient4 } from '@ton/ton'

/** What the probe asks of a v4 endpoint (TonClient4's two reads). */
export type ProbeClient = Pick<TonClient4, 'getLastBlock' | 'getAccountLite'>

/** The chain as the probe last read it. */
export interface ChainHead {
  /** The newest masterchain block's seqno. */
  readonly seqno: number
  /** That block's chain time (unix seconds). */
  readonly now: number
  /** The treasury's balance in that block (nanoton). */
  readonly treasuryNano: bigint
}

export interface ChainProbeOptions {
  /** The instance's v4 client (the chain service's, or an api instance's keyless reader), or null: nothing is read. */
  readonly client: () => ProbeClient | null
  /** The treasury's address (config.treasuryAddress). */
  readonly treasury: string
  /** A scrape waits at most this long for the endpoint (default 3 000 ms). */
  readonly timeoutMs?: number
}

export interface ChainProbe {
  /**
   * The chain's head and the treasury's balance, read now (scrapes at the same moment share one read:
   * two requests to the endpoint); null when this instance has no v4 client. Throws when the endpoint
   * fails or does not answer within timeoutMs.
   */
  head(): Promise<ChainHead | null>
  /**
   * How many blocks the chain has made past a watcher that has handled everything up to chain time
   * `seenUntil` (chain_seen), counted from the newest head this probe saw at or before that time (the
   * probe reads the head at each scrape; chain time is in seconds): exact when a scrape saw the
   * watcher's last block as the head, else over by the blocks between that scrape's head and the
   * watcher's block. Until the probe has seen such a head (an instance started while the watcher was
   * behind), counted from the oldest head it saw. 0 when the watcher is at the head's second.
   */
  blocksBehind(seenUntil: number, head: ChainHead): number
}

/** How many heads are remembered for blocksBehind (at a scrape every 15 s, about 8 hours). */
const HEADS_KEPT = 2_000

const within = <T>(p: Promise<T>, ms: number): Promise<T> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the v4 endpoint did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

/**
 * Reads the chain's head and the treasury's balance for the metrics, at scrape time: the same two
 * reads the payouts make (getLastBlock, getAccountLite), through the instance's own client.
 */
export const createChainProbe = (o: ChainProbeOptions): ChainProbe => {
  const timeoutMs = o.timeoutMs ?? 3_000
  let treasury: Address | null = null
  const treasuryAddress = () => (treasury ??= Address.parse(o.treasury))
  let reading: Promise<ChainHead> | null = null
  /** Heads seen, oldest first, one per seqno. */
  const heads: Array<{ seqno: number; now: number }> = []

  const read = async (client: ProbeClient): Promise<ChainHead> => {
    const block = await client.getLastBlock()
    const account = (await client.getAccountLite(block.last.seqno, treasuryAddress())).account
    return { seqno: block.last.seqno, now: block.now, treasuryNano: BigInt(account.balance.coins) }
  }

  return {
    head: async () => {
      const client = o.client()
      if (!client) return null
      reading ??= within(read(client), timeoutMs).finally(() => {
        reading = null
      })
      const head = await reading
      if (heads.at(-1)?.seqno !== head.seqno) {
        heads.push({ seqno: head.seqno, now: head.now })
        if (heads.length > HEADS_KEPT) heads.splice(0, heads.length - HEADS_KEPT)
      }
      return head
    },
    blocksBehind: (seenUntil, head) => {
      if (seenUntil >= head.now) return 0
      let from = heads[0]
      for (const h of heads) if (h.now <= seenUntil) from = h
      return from ? Math.max(0, head.seqno - from.seqno) : 0
    },
  }
}
