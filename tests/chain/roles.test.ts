import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toNano } from '@ton/core'
import { keyPairFromSeed } from '@ton/crypto'
import { WalletContractV5R1 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { defaultTelegramSettings, saleComment, startServer, type ChainServiceOptions, type RunningServer } from '../../server/main.ts'
import { LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { startTestServer, type TestServer } from '../server/support.ts'
import { eventually, serveV4 } from './support.ts'

/**
 * AXIOM_ROLE (server/config/role.ts): an api instance and a worker on one database and one local
 * chain, as docker-compose.yml runs them. The api instance serves HTTP and the sockets and runs no
 * chain service, periodic pass or notification sender; the worker runs them (it pays the sale the
 * api instance took) and answers nothing but /health and /ready, on 127.0.0.1.
 */
const keyPair = keyPairFromSeed(createHash('sha256').update('axiom-test:roles').digest())
const w5 = WalletContractV5R1.create({ publicKey: keyPair.publicKey, walletId: { networkGlobalId: -239 } })
let dir: string
let dbPath: string
let chain: LocalChain
let v4: Awaited<ReturnType<typeof serveV4>>
let api: TestServer
let worker: RunningServer | null = null

const chainOptions = (): ChainServiceOptions => ({ endpoint: v4.url, treasury: { version: 'v5r1', keyPair, wallet: w5 }, fromStart: true, pollMs: 0, payoutMs: 0 })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'axiom-roles-'))
  dbPath = join(dir, 'axiom.db')
  chain = await LocalChain.create({ devWallets: 3 })
  v4 = await serveV4(chain)
  await chain.faucet(w5.address, toNano('100'))
  // The periodic pass every 20 ms, on whichever instance runs it.
  api = await startTestServer({ role: 'api', dbPath, treasuryAddress: w5.address.toRawString(), settleEveryMs: 20 })
  api.clock.now = Math.floor(Date.now() / 1000)
})
afterAll(async () => {
  await worker?.close()
  await api?.close()
  await v4?.close()
  rmSync(dir, { recursive: true, force: true })
})

const bondStatus = async (id: number) => (await api.server.ctx.db.one<{ status: string }>('SELECT status FROM mints WHERE id = ?', id))!.status

describe('an api instance (AXIOM_ROLE=api)', () => {
  it('answers HTTP and the sockets, and has no chain service: given one, or asked to start one, it refuses', async () => {
    expect(api.server.role).toBe('api')
    const user = await api.login(9401)
    expect((await user.call('GET', '/user/me')).status).toBe(200)
    const live = await api.socket(user)
    expect(live.ws.readyState).toBe(WebSocket.OPEN)
    live.close()
    expect(api.server.chain()).toBeNull()
    await expect(api.server.startChain(chainOptions())).rejects.toThrow(/an api instance \(AXIOM_ROLE=api\) runs no chain service/)
    expect(api.server.chain()).toBeNull()
    await expect(startServer({ role: 'api', port: 0, dbPath: ':memory:', chain: chainOptions() })).rejects.toThrow(/runs no chain service/)
  })

  it('starts no notification sender (the worker sends them)', async () => {
    const telegram = { ...defaultTelegramSettings(), apiRoot: 'http://127.0.0.1:9' }
    const [apiOnly, all] = await Promise.all([
      startServer({ role: 'api', port: 0, dbPath: ':memory:', telegram }),
      startServer({ role: 'all', port: 0, dbPath: ':memory:', telegram }),
    ])
    try {
      expect(apiOnly.outbox).toBeNull()
      expect(all.outbox).not.toBeNull()
    } finally {
      await Promise.all([apiOnly.close(), all.close()])
    }
  })

  it('runs no periodic pass: a bond whose term ended stays active until a worker runs', async () => {
    const user = await api.login(9402)
    await api.server.admin.credit(9402, '500')
    const created = await user.call('POST', '/mint/create', { body: { amount: '100', days: 30 } })
    expect(created.status).toBe(200)
    const id = created.body.mint.id as number
    await api.server.markMintPaid(id)
    api.clock.advance(31 * 86_400)
    // Many of its 20 ms periods.
    await new Promise((r) => setTimeout(r, 400))
    expect(await bondStatus(id)).toBe('active')

    worker = await startServer({ role: 'worker', port: 0, host: '0.0.0.0', dbPath, treasuryAddress: w5.address.toRawString(), settleEveryMs: 20, now: () => api.clock.now, chain: chainOptions() })
    await eventually(async () => (await bondStatus(id)) === 'completed', 5_000)
  })
})

describe('a worker (AXIOM_ROLE=worker)', () => {
  it('pays the sale the api instance took, once', async () => {
    const user = await api.login(9403)
    await api.server.admin.credit(9403, '500')
    const sale = await user.call('POST', '/withdraw/create', { body: { token_amount: '3', address: chain.devWallet(1).friendly } })
    expect(sale.status).toBe(200)
    const id = BigInt(sale.body.id)
    const svc = worker!.chain()!
    // The first pass deploys the funded W5 treasury; the next pays.
    for (let i = 0; i < 5 && !(await svc.outgoing()).some((r) => r.withdrawalId === id && r.state === 'paid'); i++) await svc.settle()
    expect((await svc.outgoing()).find((r) => r.withdrawalId === id)).toMatchObject({ kind: 'sale', state: 'paid' })
    const paid = chain
      .transactionsOf(chain.devWallet(1).address)
      .map((t) => t.tx.inMessage)
      .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
    expect(paid).toHaveLength(1)
    const history = await user.call('GET', '/withdraw/history')
    expect(history.body.items.find((w: { id: number }) => w.id === Number(id)).status).toBe('completed')
  })

  it('listens on 127.0.0.1 whatever HOST says, and answers /health and /ready only: no API, no socket', async () => {
    const w = worker!
    expect(w.role).toBe('worker')
    expect(w.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((w.app.server.address() as { address: string }).address).toBe('127.0.0.1')
    expect((await fetch(`${w.url}/health`)).status).toBe(200)
    expect(await (await fetch(`${w.url}/ready`)).json()).toMatchObject({ status: 'ready' })
    expect((await fetch(`${w.url}/api/price/current-price`)).status).toBe(404)
    const register = await fetch(`${w.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(register.status).toBe(404)
    const refused = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${w.url.replace('http', 'ws')}/api/ws`)
      ws.once('open', () => resolve('open'))
      ws.once('error', (e) => resolve(e.message))
    })
    expect(refused).toMatch(/404/)
    // The price ticks are the api instances': the worker never drives them.
    expect(w.drivesPrice()).toBe(false)
  })
})
