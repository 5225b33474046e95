/**
 * `npm run bench:notify`: drains a queue of notifications through the backend's outbox sender
 * against a Bot API fake that enforces Telegram's limit (30 messages in any second, else 429 with
 * retry_after), and reports the rate reached and the 429s met (docs/benchmarks.md).
 * AXIOM_BENCH_NOTIFY_COUNT sets the queue (default 10 000, about 7 minutes at 25 a second).
 */
import { defaultTelegramSettings, DEV_BOT_TOKEN, startServer } from '../server/main.ts'
import { error, ok, startBotApiFake } from '../tests/support/bot-api-fake.ts'
import { signInitDataFor } from '../tests/support/init-data.ts'
import { RELAXED_RATE_LIMITS } from '../tests/support/relaxed-limits.ts'

const COUNT = Number(process.env.AXIOM_BENCH_NOTIFY_COUNT ?? 10_000)
const USERS = 100
const TELEGRAM_LIMIT = 30

const fake = await startBotApiFake(DEV_BOT_TOKEN)
const accepted: number[] = []
let refused429 = 0
fake.on('getChatMember', (p) => ok({ status: 'member', user: { id: p.user_id, is_bot: false, first_name: 'x' } }))
fake.on('sendMessage', (p) => {
  const t = Date.now()
  while (accepted.length > 0 && accepted[0]! <= t - 1000) accepted.shift()
  if (accepted.length >= TELEGRAM_LIMIT) {
    refused429++
    return error(429, 'Too Many Requests: retry after 1', 1)
  }
  accepted.push(t)
  return ok({ message_id: 1, date: Math.floor(t / 1000), chat: { id: p.chat_id, type: 'private' }, text: p.text })
})
const server = await startServer({ port: 0, dbPath: ':memory:', rateLimits: RELAXED_RATE_LIMITS, telegram: { ...defaultTelegramSettings(), apiRoot: fake.url } })
try {
  const ids: bigint[] = []
  for (let i = 1; i <= USERS; i++) {
    const init = signInitDataFor({ id: 900_000 + i, first_name: `Bench ${i}` }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN)
    const res = await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ init_data: init }) })
    if (!res.ok) throw new Error(`register: ${res.status}`)
  }
  for (const row of await server.ctx.engine.all('SELECT id FROM users ORDER BY id')) ids.push(BigInt(row.id as bigint))
  const now = Math.floor(Date.now() / 1000)
  await server.ctx.engine.transaction(async (db) => {
    for (let i = 0; i < COUNT; i++) {
      await db.run('INSERT INTO outbox (user_id, kind, payload, next_at, created_at) VALUES (?, ?, ?, ?, ?)', ids[i % ids.length]!, 'friend_joined', JSON.stringify({ name: `Friend ${i}` }), now, now)
    }
  })
  const sendCalls = () => fake.callsOf('sendMessage')
  const started = Date.now()
  await server.outbox!.drain()
  // The background loop may have taken part of the queue: wait until every row is done.
  for (;;) {
    const left = await server.ctx.engine.one("SELECT COUNT(*) AS n FROM outbox WHERE state IN ('pending', 'sending')")
    if (Number(left!.n) === 0) break
    await new Promise((r) => setTimeout(r, 200))
  }
  const seconds = (Date.now() - started) / 1000
  const times = sendCalls().map((c) => c.at).sort((a, b) => a - b)
  let peak = 0
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++
    peak = Math.max(peak, i - j + 1)
  }
  const sent = Number((await server.ctx.engine.one("SELECT COUNT(*) AS n FROM outbox WHERE state = 'sent'"))!.n)
  console.log(`notifications: ${COUNT} queued, ${sent} sent in ${seconds.toFixed(1)} s → ${(sent / seconds).toFixed(2)} a second; peak ${peak} in any 1 s window; 429s: ${refused429}`)
} finally {
  await server.close()
  await fake.close()
}
