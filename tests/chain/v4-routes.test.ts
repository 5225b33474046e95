import { Address, beginCell, Cell, internal, toNano } from '@ton/core'
import { TonClient4, WalletContractV4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { multiRootBoc } from '../../stand-ins/chain/multi-root-boc.ts'
import { TX_PAGE } from '../../stand-ins/chain/v4-api.ts'
import { faucetKey } from '../../stand-ins/chain/dev-keys.ts'
import { eventually, startStack, type Stack } from './support.ts'

let s: Stack
let client: TonClient4
beforeAll(async () => {
  s = await startStack({ refunds: false })
  client = new TonClient4({ endpoint: s.ton.v4Endpoint, timeout: 5000 })
})
afterAll(async () => {
  await s?.close()
})

describe('the local v4 API as TonClient4 reads it', () => {
  it('a multi-root bag of cells reads back as its roots, shared cells once', () => {
    const shared = beginCell().storeUint(7, 5).endCell()
    const roots = [beginCell().storeUint(1, 8).storeRef(shared).endCell(), beginCell().storeUint(2, 9).storeRef(shared).storeRef(shared).endCell(), shared]
    const bag = multiRootBoc(roots)
    const back = Cell.fromBoc(bag)
    expect(back.map((c) => c.hash().toString('hex'))).toEqual(roots.map((c) => c.hash().toString('hex')))
    // Four distinct cells at most: the shared one is written once.
    expect(bag.length).toBeLessThan(roots.reduce((n, r) => n + r.toBoc({ idx: false, crc32: false }).length, 0))
  })

  it("pages an account's history newest first from its last lt+hash, as the watcher does", async () => {
    const fresh = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 7) }).address
    const n = TX_PAGE + 5
    // Four payments a transfer (a v4 wallet's most), in order: seven blocks of the clocked chain, not 25.
    const values = Array.from({ length: n }, (_, i) => toNano('0.1') + BigInt(i))
    for (let i = 0; i < n; i += 4) await s.ton.chain.transfer(faucetKey(), values.slice(i, i + 4).map((value) => ({ to: fresh, value })))
    const last = await client.getLastBlock()
    const lite = await client.getAccountLite(last.last.seqno, fresh)
    // What came in, less the storage fees of an account that is not deployed.
    const sent = toNano('0.1') * BigInt(n) + BigInt((n * (n - 1)) / 2)
    expect(BigInt(lite.account.balance.coins)).toBeLessThanOrEqual(sent)
    expect(BigInt(lite.account.balance.coins)).toBeGreaterThan(sent - toNano('0.01'))
    const cursor = lite.account.last!
    const page1 = await client.getAccountTransactions(fresh, BigInt(cursor.lt), Buffer.from(cursor.hash, 'base64'))
    expect(page1).toHaveLength(TX_PAGE)
    const first = page1[0]!.tx
    expect(first.lt).toBe(BigInt(cursor.lt))
    // Newest first: the value received falls page by page.
    const received = page1.map((t) => (t.tx.inMessage!.info.type === 'internal' ? t.tx.inMessage!.info.value.coins : 0n))
    expect(received[0]).toBe(toNano('0.1') + BigInt(n - 1))
    const tail = page1[TX_PAGE - 1]!.tx
    const page2 = await client.getAccountTransactions(fresh, tail.prevTransactionLt, Buffer.from(tail.prevTransactionHash.toString(16).padStart(64, '0'), 'hex'))
    expect(page2).toHaveLength(5)
    expect(page2[4]!.tx.prevTransactionLt).toBe(0n)
    const all = [...page1, ...page2].map((t) => t.tx.hash().toString('hex'))
    expect(all).toEqual(s.ton.chain.transactionsOf(fresh).map((t) => t.tx.hash().toString('hex')).reverse())
    expect(page1[0]!.block.seqno).toBe(s.ton.chain.transactionsOf(fresh).at(-1)!.block)
  })

  it('answers 404 for a transaction the account does not have, 400 for a bad address', async () => {
    const a = s.ton.chain.devWallet(0).wallet.address.toString({ urlSafe: true })
    expect((await fetch(`${s.ton.v4Endpoint}/account/${a}/tx/1/${'A'.repeat(43)}`)).status).toBe(404)
    expect((await fetch(`${s.ton.v4Endpoint}/account/nope/tx/1/${'A'.repeat(43)}`)).status).toBe(400)
  })

  it('runs get methods and accepts a wallet transfer through /send (open(contract))', async () => {
    const key = s.ton.chain.devWallet(1)
    const wallet = client.open(key.wallet)
    const seqno = await wallet.getSeqno()
    const to = s.ton.chain.devWallet(2).wallet.address
    const before = await s.ton.chain.balance(to)
    await wallet.sendTransfer({ seqno, secretKey: key.keyPair.secretKey, messages: [internal({ to, value: toNano('2'), bounce: false })] })
    // /send answers at acceptance, as a node does: the transfer is in the next block.
    await eventually(async () => (await wallet.getSeqno()) === seqno + 1)
    // Two TON less the receiving wallet's own fee.
    expect((await s.ton.chain.balance(to)) - before).toBeGreaterThan(toNano('1.99'))
  })

  it('the faucet sends local test TON to any address, and refuses bad requests', async () => {
    const to = Address.parse(WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 9) }).address.toString())
    const r = await fetch(`${s.ton.url}/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: to.toString(), amount: '12.5' }) })
    expect(r.status).toBe(200)
    expect(await s.ton.chain.balance(to)).toBeGreaterThan(toNano('12.49'))
    const bad = await fetch(`${s.ton.url}/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: to.toString(), amount: '5000' }) })
    expect(bad.status).toBe(400)
    const noAddress = await fetch(`${s.ton.url}/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(noAddress.status).toBe(400)
  })
})
