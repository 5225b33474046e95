import { toNano } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainWatcher, DECIDED_KEPT } from '../../server/chain/watcher.ts'
import { paymentRecords } from '../../server/chain/payment-rows.ts'
import { commentCell, type LocalChain } from '../../stand-ins/chain/local-chain.ts'
import type { TestServer } from '../server/support.ts'
import { backendWithV4BehindProxy } from './support.ts'

/**
 * A watcher runs for months: the decisions it keeps in memory (what the local stack shows) are its
 * latest few, not every payment it ever decided; the database keeps them all.
 */
let ts: TestServer
let chain: LocalChain
let v4Url: string
let close: () => Promise<void>

beforeAll(async () => {
  const b = await backendWithV4BehindProxy()
  ;({ ts, chain } = b)
  v4Url = b.proxy.url
  close = async () => {
    await b.proxy.close()
    await b.v4.close()
    await ts.close()
  }
})
afterAll(async () => close?.())

describe('the watcher’s memory', () => {
  it(`keeps only its latest decisions (${DECIDED_KEPT} by default; 3 here), oldest first; the database has every one`, async () => {
    const watcher = createChainWatcher(ts.server.ctx, {
      client: new TonClient4({ endpoint: v4Url, timeout: 2000 }),
      treasury: chain.treasury.wallet.address,
      lease: await ts.server.lease('chain-watcher'),
      fromStart: true,
      maxFailures: 5,
      keepDecided: 3,
      log: () => undefined,
    })
    for (let i = 1; i <= 5; i++) await chain.transfer(chain.devWallet(1), [{ to: chain.treasury.address, value: toNano('0.05'), body: commentCell(`top-up ${i}`), bounce: true }])
    await watcher.pass()
    expect(watcher.decided.map((r) => r.comment)).toEqual(['top-up 3', 'top-up 4', 'top-up 5'])
    expect((await paymentRecords(ts.server.ctx)).map((r) => r.comment)).toEqual(['top-up 1', 'top-up 2', 'top-up 3', 'top-up 4', 'top-up 5'])

    await chain.transfer(chain.devWallet(1), [{ to: chain.treasury.address, value: toNano('0.05'), body: commentCell('top-up 6'), bounce: true }])
    await watcher.pass()
    expect(watcher.decided.map((r) => r.comment)).toEqual(['top-up 4', 'top-up 5', 'top-up 6'])
    await watcher.halt()
  })
})

