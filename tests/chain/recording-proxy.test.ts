import { Address } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saleComment } from '../../server/main.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import type { FaultProxy } from '../support/fault-proxy.ts'
import type { Session, TestServer } from '../server/support.ts'
import { backendWithV4BehindProxy, type serveV4 } from './support.ts'

/**
 * The backend's watcher and payouts reach the chain only through AXIOM_TON_API: pointed at a
 * recording proxy in front of the local v4 API, every call the v4 API serves came through the proxy,
 * and the proxy's record accounts for the work (the history read, the seqno run, each send).
 */
let ts: TestServer
let chain: LocalChain
let v4: Awaited<ReturnType<typeof serveV4>>
let proxy: FaultProxy
let user: Session

beforeAll(async () => {
  ;({ ts, chain, v4, proxy } = await backendWithV4BehindProxy())
  await ts.server.startChain({
    endpoint: proxy.url,
    treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
    fromStart: true,
    pollMs: 0,
    payoutMs: 0,
  })
  user = await ts.login(8801)
  await ts.server.admin.credit(8801, '100')
})
afterAll(async () => {
  await ts?.close()
  await proxy?.close()
  await v4?.close()
})

describe('a recording proxy in front of the local v4 API', () => {
  it('sees every read and send of the watcher and the payouts', async () => {
    const svc = ts.server.chain()!
    const treasury = chain.treasury.wallet.address.toString({ urlSafe: true })
    const created = await user.call('POST', '/mint/create', { body: { amount: 10, days: 30 } })
    await chain.transfer(chain.devWallet(1), [
      { to: chain.treasury.address, value: BigInt(created.body.payment.amount_nano), body: commentCell(created.body.payment.comment), bounce: true },
    ])
    await chain.transfer(chain.devWallet(2), [{ to: chain.treasury.address, value: 50_000_000n, body: commentCell('axiom:mint:424242'), bounce: true }])
    const sale = await user.call('POST', '/withdraw/create', { body: { token_amount: '20', address: chain.devWallet(1).friendly } })
    expect(sale.status).toBe(200)

    await svc.settle()
    await svc.watcher.pass()
    expect(svc.watcher.decided.map((r) => r.outcome)).toEqual(['activated', 'refunded'])
    const sent = (await svc.outgoing()).map((r) => [r.kind, r.state])
    expect(sent).toEqual([
      ['refund', 'paid'],
      ['sale', 'paid'],
    ])
    const paidTo = chain
      .transactionsOf(chain.devWallet(1).address)
      .map((t) => t.tx.inMessage)
      .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(BigInt(sale.body.id)))
    expect(paidTo).toHaveLength(1)

    // Every call the v4 API served came through the proxy, and nothing else reached it.
    expect(v4.served.length).toBeGreaterThan(0)
    expect(v4.served).toEqual(proxy.seen)
    const kinds = new Set(
      proxy.seen.map((c) =>
        c
          .replace(/\/block\/\d+\//, '/block/N/')
          .replace(treasury, 'TREASURY')
          .replace(/\/tx\/\d+\/[^/]+$/, '/tx/LT/HASH'),
      ),
    )
    expect([...kinds].sort()).toEqual(
      [
        'GET /block/latest',
        'GET /block/N/TREASURY/lite',
        'GET /account/TREASURY/tx/LT/HASH',
        'GET /block/N/TREASURY/run/seqno',
        'POST /send',
      ].sort(),
    )
    // One send per treasury message the chain ran: the refund and the sale went out together.
    const treasuryMessages = chain.transactionsOf(Address.parse(chain.treasury.address)).filter((t) => t.tx.inMessage?.info.type === 'external-in')
    expect(proxy.seen.filter((c) => c === 'POST /send')).toHaveLength(treasuryMessages.length)
    expect(treasuryMessages).toHaveLength(1)
  })

  it('with the proxy refusing everything, nothing is decided and nothing is sent', async () => {
    const svc = ts.server.chain()!
    const before = { decided: svc.watcher.decided.length, sends: chain.transactionsOf(chain.treasury.address).length }
    const created = await user.call('POST', '/mint/create', { body: { amount: 11, days: 30 } })
    await chain.transfer(chain.devWallet(1), [
      { to: chain.treasury.address, value: BigInt(created.body.payment.amount_nano), body: commentCell(created.body.payment.comment), bounce: true },
    ])
    proxy.fail('/', { kind: 'status', status: 503, msg: 'down' })
    try {
      await svc.settle()
    } finally {
      proxy.clear()
    }
    expect(svc.watcher.decided.length).toBe(before.decided)
    expect(chain.transactionsOf(chain.treasury.address).length).toBe(before.sends + 1)
    await svc.settle()
    expect(svc.watcher.decided.length).toBe(before.decided + 1)
  })
})
