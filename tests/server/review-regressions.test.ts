import { afterAll, beforeAll, expect, it } from 'vitest'
import { MintPayment } from '../../core/domain/entities/mint.ts'
import { decode, SOME_ADDRESS, startTestServer, testDatabase, type TestServer } from './support.ts'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

it('a sale too large for the ledger is refused with a 4xx, never a 500', async () => {
  const user = await t.login(4001)
  for (const token_amount of ['10000000000', 1e11, '9999999999999']) {
    const res = await user.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount, address: SOME_ADDRESS } })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  }
})

it('a link made of many slashes is answered at once, not after seconds of regex work', async () => {
  const user = await t.login(4002)
  await user.call('POST', '/task/start', { body: { task_id: 2 } })
  const started = Date.now()
  const res = await user.call('POST', '/task/validate', { body: { task_id: 2, link: `${'/'.repeat(150_000)}a` } })
  expect(res.status).toBe(422)
  expect(Date.now() - started).toBeLessThan(2_000)
})

it('cancelling a bond whose term has ended completes it instead of charging the penalty', async () => {
  const user = await t.login(4003)
  const created = decode(MintPayment, (await user.call('POST', '/mint/create', { body: { amount: 50, days: 10 } })).body)
  await t.server.markMintPaid(Number(created.mint.id))
  t.clock.advance(10 * 86_400 + 5)
  const again = await t.login(4003)
  const res = await again.call('POST', `/mint/${created.mint.id}/cancel`)
  expect(res.status).toBe(400)
  expect(res.body.msg).toMatch(/completed/)
})

it('a link for yourself has exactly one activation', async () => {
  const user = await t.login(4004)
  await t.server.admin.credit(4004, '100', 'task_balance')
  const res = await user.call('POST', '/farming/create', {
    body: { amount: 2, days: 10, count_activations: 5, from_ref_balance: false, from_task_balance: true, is_multilink: true, is_for_me: true },
  })
  expect(res.status).toBe(422)
})

it('a main socket closes with 4001 when its access token expires', async () => {
  const { default: WebSocket } = await import('ws')
  const { signInitDataFor } = await import('../support/init-data.ts')
  const { DEV_BOT_TOKEN, startServer } = await import('../../server/main.ts')
  const server = await startServer({ port: 0, dbPath: await testDatabase(), accessTokenTtlS: 1 })
  try {
    const initData = signInitDataFor({ id: 4005, first_name: 'Ex' }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN)
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ init_data: initData, ref_code: null }),
    })
    const { token } = (await reg.json()) as { token: string }
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws/`)
    const closed = new Promise<[number, string]>((resolve) => ws.on('close', (code, reason) => resolve([code, String(reason)])))
    ws.on('open', () => ws.send(token))
    expect(await closed).toEqual([4001, 'Token expired'])
  } finally {
    await server.close()
  }
})
