import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultTelegramSettings, DEV_BOT_TOKEN } from '../../server/main.ts'
import { BLOCKED, ok, startBotApiFake, tooManyRequests, type BotApiFake, type FakeAnswer } from '../support/bot-api-fake.ts'
import { eventually } from '../chain/support.ts'
import { startTestServer, type TestServer } from '../server/support.ts'
import { must, moved, scrape, type Scrape } from './support.ts'

/**
 * The background jobs' metrics: the periodic pass (the positions it has yet to complete, and how long
 * each pass takes) and the notification outbox (its rows, how long the oldest has waited, and every
 * answer the Bot API gave it, the 429s and 403s among them).
 */
const DAY = 86_400
const servers: TestServer[] = []
afterAll(async () => {
  for (const t of servers) await t.close()
})
const server = async (o: Parameters<typeof startTestServer>[0]) => {
  const t = await startTestServer({ metrics: { port: 0, host: '127.0.0.1' }, ...o })
  servers.push(t)
  return t
}
const metrics = (t: TestServer) => scrape(t.server.metricsUrl!)

/** A 30-day bond paid (as the watcher would mark it), for `t`'s user `telegramId`. */
const paidBond = async (t: TestServer, telegramId: number) => {
  const u = await t.login(telegramId)
  const res = await u.call('POST', '/mint/create', { body: { amount: 20, days: 30 } })
  expect(res.status).toBe(200)
  await t.server.markMintPaid(Number(res.body.mint.id))
}

describe('the periodic pass', () => {
  it('shows the positions whose term has ended and that no pass has completed yet', async () => {
    // No pass runs in this test's time.
    const t = await server({ settleEveryMs: 3_600_000 })
    await paidBond(t, 9101)
    await paidBond(t, 9102)
    const running = await metrics(t)
    expect(must(running, 'axiom_settle_due_positions', { table: 'mints' })).toBe(0)
    expect(must(running, 'axiom_settle_due_positions', { table: 'stakes' })).toBe(0)
    t.clock.advance(31 * DAY)
    const due = await metrics(t)
    expect(must(due, 'axiom_settle_due_positions', { table: 'mints' })).toBe(2)
    expect(must(due, 'axiom_settle_pass_duration_seconds_count', { outcome: 'ok' })).toBe(0)
  })

  it('times each pass, and the due positions fall to 0 once a pass has completed them', async () => {
    const t = await server({ settleEveryMs: 50 })
    const first = await metrics(t)
    await paidBond(t, 9201)
    t.clock.advance(31 * DAY)
    const done = await eventually(async () => {
      const m = await metrics(t)
      return must(m, 'axiom_settle_due_positions', { table: 'mints' }) === 0 && moved(first, m, 'axiom_settle_pass_duration_seconds_count', { outcome: 'ok' }) >= 2 ? m : null
    })
    expect(must(done, 'axiom_settle_pass_duration_seconds_sum', { outcome: 'ok' })).toBeGreaterThan(0)
    expect(must(done, 'axiom_settle_pass_duration_seconds_count', { outcome: 'failed' })).toBe(0)
    // Every pass is in the histogram's last bucket.
    expect(must(done, 'axiom_settle_pass_duration_seconds_bucket', { outcome: 'ok', le: '+Inf' })).toBe(
      must(done, 'axiom_settle_pass_duration_seconds_count', { outcome: 'ok' }),
    )
    const me = await (await t.login(9201)).call('GET', '/mint/')
    expect(me.body.items[0].status).toBe('completed')
  })
})

describe('the notification outbox', () => {
  let fake: BotApiFake
  let t: TestServer
  /** What sendMessage answers next (default: sent). */
  const script: FakeAnswer[] = []
  let messageId = 1

  beforeAll(async () => {
    fake = await startBotApiFake(DEV_BOT_TOKEN)
    fake.on('getChatMember', (p) => ok({ status: 'member', user: { id: p.user_id, is_bot: false, first_name: 'x' } }))
    fake.on('sendMessage', (p) => script.shift() ?? ok({ message_id: messageId++, date: 1, chat: { id: p.chat_id, type: 'private' }, text: p.text }))
    t = await server({ telegram: { ...defaultTelegramSettings(), apiRoot: fake.url, communityChat: '@axiom_community' } })
  })
  afterAll(async () => fake?.close())

  const calls = (m: Scrape, result: string) => m.samples.get(`axiom_telegram_api_requests_total{method="sendMessage",result="${result}"}`) ?? 0
  /** A friend joins through `referrer`'s link: one notice to the referrer is queued. */
  const friendJoins = async (referrer: number, friend: number) => {
    const code = ((await (await t.login(referrer)).call('GET', '/user/me')).body as { ref_code: string }).ref_code
    await t.login(friend, code)
  }

  it("a 429 leaves the notice pending and is counted; the oldest pending notice's age; then it is sent", async () => {
    const before = await metrics(t)
    // Longer than the client waits (60 s): Telegram's 429 reaches the sender, which tries again later.
    script.push(tooManyRequests(3600))
    await friendJoins(9301, 9302)
    await t.server.outbox!.drain()
    const waiting = await metrics(t)
    expect(calls(waiting, '429') - calls(before, '429')).toBe(1)
    expect(moved(before, waiting, 'axiom_outbox_messages', { state: 'pending' })).toBe(1)
    expect(moved(before, waiting, 'axiom_outbox_messages', { state: 'sent' })).toBe(0)
    // The sender tries again 2 s later (its backoff); a second on, the notice has waited a second.
    t.clock.advance(1)
    expect(must(await metrics(t), 'axiom_outbox_oldest_pending_seconds')).toBe(1)

    t.clock.advance(2)
    await eventually(async () => (await t.server.outbox!.drain(), moved(before, await metrics(t), 'axiom_outbox_messages', { state: 'sent' }) === 1))
    const sent = await metrics(t)
    expect(calls(sent, 'ok') - calls(before, 'ok')).toBe(1)
    expect(calls(sent, '429') - calls(before, '429')).toBe(1)
    expect(moved(before, sent, 'axiom_outbox_messages', { state: 'pending' })).toBe(0)
    expect(must(sent, 'axiom_outbox_oldest_pending_seconds')).toBe(0)
  })

  it('a 429 the client waits out and retries at once is counted too: every answer, not only the last', async () => {
    const before = await metrics(t)
    script.push(tooManyRequests(0))
    await friendJoins(9321, 9322)
    await eventually(async () => (await t.server.outbox!.drain(), moved(before, await metrics(t), 'axiom_outbox_messages', { state: 'sent' }) === 1))
    const after = await metrics(t)
    expect(calls(after, '429') - calls(before, '429')).toBe(1)
    expect(calls(after, 'ok') - calls(before, 'ok')).toBe(1)
  })

  it('a 403 (the user blocked the bot) is counted, and the notice refused', async () => {
    const before = await metrics(t)
    script.push(BLOCKED)
    await friendJoins(9311, 9312)
    await eventually(async () => (await t.server.outbox!.drain(), moved(before, await metrics(t), 'axiom_outbox_messages', { state: 'refused' }) === 1))
    const after = await metrics(t)
    expect(calls(after, '403') - calls(before, '403')).toBe(1)
    expect(calls(after, 'ok') - calls(before, 'ok')).toBe(0)
    expect(moved(before, after, 'axiom_outbox_messages', { state: 'pending' })).toBe(0)
  })
})
