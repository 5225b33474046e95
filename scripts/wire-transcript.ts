/**
 * Drives a fixed sequence of HTTP requests and socket reads against the backend (fixed clock, manual
 * price ticks) and prints every answer and event, byte for byte, with only the random parts (tokens,
 * codes, the Date header, tonProof payloads) replaced by placeholders. Run it before and after a change that
 * must not change the wire, and diff the two outputs:
 *   node --import tsx scripts/wire-transcript.ts > before.txt
 */
import WebSocket from 'ws'
import { DEV_BOT_TOKEN, startServer } from '../server/main.ts'
import { initDataHash, toQuery } from '../tests/support/init-data.ts'

const T0 = 1_780_000_000
let now = T0
const server = await startServer({ port: 0, dbPath: ':memory:', priceTickMs: 1_000_000_000, now: () => now, rateLimits: null })
const lines: string[] = []

const initData = (id: number, authDate: number, botToken = DEV_BOT_TOKEN): string => {
  const fields = { auth_date: String(authDate), query_id: `q${id}`, user: JSON.stringify({ id, first_name: `User ${id}` }) }
  return toQuery({ ...fields, hash: initDataHash(fields, botToken) })
}

/** Tokens and random payloads become placeholders, numbered by first sight so equal values stay equal. */
const seen = new Map<string, string>()
const normalise = (text: string): string =>
  text.replace(/"(ref_code|inline_message_id|activation_code|code|payload)":"[^"]*"/g, '"$1":"<random>"').replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+|(?<![\w-])[\w-]{43}(?![\w-])|\b[0-9a-f]{64}\b/g, (m) => {
    if (!seen.has(m)) seen.set(m, `<random ${seen.size + 1}>`)
    return seen.get(m)!
  })

const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive'])

const call = async (method: string, path: string, o: { token?: string; body?: string; type?: string; headers?: Record<string, string> } = {}) => {
  const headers: Record<string, string> = { ...(o.headers ?? {}) }
  if (o.token) headers.authorization = `Bearer ${o.token}`
  if (o.body !== undefined) headers['content-type'] = o.type ?? 'application/json'
  const res = await fetch(`${server.url}${path}`, { method, headers, ...(o.body !== undefined ? { body: o.body } : {}) })
  const text = await res.text()
  const kept = [...res.headers].filter(([k]) => !SKIPPED_HEADERS.has(k)).map(([k, v]) => `${k}: ${v}`)
  lines.push(normalise(`${method} ${path} ${o.body ?? ''}`), `  ${res.status} ${kept.join(' | ')}`, `  ${normalise(text)}`)
  try {
    return JSON.parse(text) as any
  } catch {
    return text
  }
}

const socket = async (path: string) => {
  const ws = new WebSocket(server.url.replace('http', 'ws') + path)
  const got: string[] = []
  ws.on('message', (raw) => got.push(raw.toString()))
  ws.on('close', (code, reason) => got.push(`close ${code} ${reason.toString()}`))
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  const settle = () => new Promise((r) => setTimeout(r, 150))
  /** Waits for at least `count` messages (a busy machine is slow), then for stragglers. */
  const flush = async (label: string, count = 0) => {
    for (let i = 0; i < 100 && got.length < count; i++) await settle()
    await settle()
    lines.push(`socket ${path} ${label}`, ...got.splice(0).map((m) => `  ${normalise(m)}`))
  }
  return { ws, flush }
}

try {
  await call('GET', '/health')
  await call('GET', '/ready')
  await call('GET', '/api/maintenance/')
  await call('GET', '/api/no-such-route')
  await call('GET', '/api/user/me')
  await call('GET', '/api/user/me', { token: 'nonsense' })
  await call('POST', '/api/auth/register', { body: '{"init_data":"hash=00"}' })
  await call('POST', '/api/auth/register', { body: '{"init_data": ' })
  await call('POST', '/api/auth/register', { body: 'plain', type: 'text/plain' })
  const a = await call('POST', '/api/auth/register', { body: JSON.stringify({ init_data: initData(101, now), ref_code: null }) })
  const me = await call('GET', '/api/user/me', { token: a.token })
  const b = await call('POST', '/api/auth/register', { body: JSON.stringify({ init_data: initData(102, now), ref_code: me.ref_code }) })
  const c = await call('POST', '/api/auth/register', { body: JSON.stringify({ init_data: initData(103, now) }) })
  await call('POST', '/api/auth/refresh', { body: JSON.stringify({ refresh: c.refresh }) })
  await call('POST', '/api/auth/refresh', { body: JSON.stringify({ refresh: c.refresh }) })
  await call('GET', '/api/user/me', { token: c.token })
  const t = a.token as string

  const main = await socket('/api/ws/')
  main.ws.send(t)
  await main.flush('after the token', 3)
  const bad = await socket('/api/ws/')
  bad.ws.send('not-a-token')
  await bad.flush('after a bad token', 1)
  const candles = await socket('/api/ws/candles/')
  await candles.flush('on open')

  for (const p of [
    '/api/user/me',
    '/api/user/referrals',
    '/api/mint/',
    '/api/mint/all-plans',
    '/api/staking/',
    '/api/farming/',
    '/api/farming/plans',
    '/api/farming/activation-status',
    '/api/farming/activation-status?activation_code=nope',
    '/api/mint/calculate?amount=50&freeze_days=10',
    '/api/mint/calculate?amount=-1&days=10',
    '/api/staking/calculate?staking_id=1',
    '/api/farming/calculate?amount=50&freeze_days=30',
    '/api/withdraw/calculate?token_amount=10',
    '/api/price/current-price',
    '/api/price/candles?interval=1m',
    '/api/stats/financial',
    '/api/task/list',
  ])
    await call('GET', p, { token: t })
  await call('POST', '/api/user/share-message', { token: t })

  const created = await call('POST', '/api/mint/create', { token: t, body: '{"amount":50,"days":10}' })
  await call('POST', '/api/mint/create', { token: t, body: '{"amount":50,"days":10}' })
  await call('POST', '/api/mint/create', { token: t, body: '{"amount":50,"days":10}', headers: { 'idempotency-key': 'k1' } })
  await call('POST', '/api/mint/create', { token: t, body: '{"amount":51,"days":10}', headers: { 'idempotency-key': 'k1' } })
  await call('POST', '/api/mint/create', { token: t, body: '{"amount":50,"days":10}', headers: { 'idempotency-key': '' } })
  await call('POST', '/api/mint/create', { token: t, body: '{"amount":"x","days":10}' })
  await call('POST', '/api/mint/create', { token: t, body: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]' })
  await main.flush('after the creates', 2)
  await server.markMintPaid(created.mint.id)
  await main.flush('after the payment', 1)
  await call('POST', '/api/mint/999/cancel', { token: t })
  await call('POST', '/api/staking/create', { token: t, body: JSON.stringify({ mint_id: created.mint.id }) })
  await call('POST', '/api/staking/create', { token: t, body: JSON.stringify({ mint_id: created.mint.id }) })
  await call('POST', `/api/mint/${created.mint.id}/cancel`, { token: t })
  await call('GET', '/api/staking/calculate?staking_id=1', { token: t })
  const second = await call('POST', '/api/mint/create', { token: t, body: '{"amount":20,"days":30}' })
  await call('POST', `/api/mint/${second.mint.id}/cancel`, { token: t })
  await call('POST', '/api/farming/create', { token: t, body: '{"amount":10,"days":30,"count_activations":2,"is_multilink":true}' })
  await call('GET', '/api/farming/', { token: t })
  await call('POST', '/api/farming/1/cancel', { token: b.token })
  await main.flush('after staking and farming', 5)

  now += 86_400 * 11
  await server.tick()
  await main.flush('after a day and a tick', 1)
  const t2 = (await call('POST', '/api/auth/register', { body: JSON.stringify({ init_data: initData(101, now) }) })).token as string
  await candles.flush('after a tick', 1)
  await call('GET', '/api/mint/', { token: t2 })
  await call('GET', '/api/staking/', { token: t2 })
  await call('POST', '/api/withdraw/transfer-from-referral-balance', { token: t2, body: '{"token_amount":1}' })
  await call('POST', '/api/withdraw/create', { token: t2, body: JSON.stringify({ from_ref_balance: false, token_amount: 10, address: '0:' + 'a'.repeat(64) }) })
  await server.admin.credit(101, '20')
  await call('POST', '/api/withdraw/create', { token: t2, body: JSON.stringify({ from_ref_balance: false, token_amount: 10, address: '0:' + 'a'.repeat(64) }) })
  await call('POST', '/api/withdraw/create', { token: t2, body: JSON.stringify({ from_ref_balance: false, token_amount: 10, address: 'nope' }) })
  await call('GET', '/api/withdraw/history', { token: t2 })
  await call('GET', '/api/operations/history', { token: t2 })
  await call('GET', '/api/operations/history?limit=2&offset=1', { token: t2 })
  await call('GET', '/api/task/list', { token: t2 })
  await call('POST', '/api/task/start', { token: t2, body: '{"task_id":1}' })
  await call('POST', '/api/task/validate', { token: t2, body: '{"task_id":1}' })
  await call('POST', '/api/task/claim', { token: t2, body: '{"task_id":1}' })
  await call('POST', '/api/task/claim', { token: t2, body: '{"task_id":99}' })
  await call('POST', '/api/wallet/ton-proof/payload', { token: t2 })
  await call('POST', '/api/wallet/ton-proof/check', { token: t2, body: '{}' })
  await main.flush('at the end', 5)
  now += 16 * 60
  await call('GET', '/api/user/me', { token: t2 })
  await call('POST', '/api/farming/1/cancel', { token: t2 })
  await server.admin.setMaintenance(true)
  await call('GET', '/api/mint/', { token: t2 })
  await call('GET', '/api/maintenance/')
  main.ws.close()
  candles.ws.close()
  console.log(lines.join('\n'))
} catch (e) { console.log(lines.join("\n")); throw e } finally {
  await server.close()
}
