import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { defaultTelegramSettings, DEV_BOT_TOKEN } from '../../server/main.ts'
import { HOLD_BEHIND_TRIES, NOT_ALLOWED_TRIES } from '../../server/telegram/outbox.ts'
import { BLOCKED, error, ok, startBotApiFake, tooManyRequests, type BotApiFake, type FakeAnswer } from '../support/bot-api-fake.ts'
import { startTestServer, type TestServer } from './support.ts'

let fake: BotApiFake
let t: TestServer
/** What sendMessage answers next, per chat id (default: sent). */
let script: Map<number, FakeAnswer[]>
let nextMessageId = 1

beforeAll(async () => {
  fake = await startBotApiFake(DEV_BOT_TOKEN)
  fake.on('getChatMember', (p) => ok({ status: 'member', user: { id: p.user_id, is_bot: false, first_name: 'x' } }))
  fake.on('sendMessage', (p) => {
    const queued = script.get(Number(p.chat_id))?.shift()
    if (queued) return queued
    return ok({ message_id: nextMessageId++, date: 1, chat: { id: p.chat_id, type: 'private' }, text: p.text })
  })
  t = await startTestServer({ telegram: { ...defaultTelegramSettings(), apiRoot: fake.url, communityChat: '@axiom_community' } })
})
afterAll(async () => {
  await t.close()
  await fake.close()
})
beforeEach(() => {
  script = new Map()
})

const sentTo = (chatId: number) => fake.callsOf('sendMessage').filter((c) => c.params.chat_id === chatId)
const drain = () => t.server.outbox!.drain()

describe('notifications through the outbox', () => {
  it('a friend who joins through the link: the referrer is told once, in the bot chat, with a button to the app', async () => {
    const alice = await t.login(8001)
    const code = ((await alice.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    await t.login(8002, code)
    await drain()
    const sent = sentTo(8001)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.params.text).toBe('User 8002 joined AXIOM through your link.')
    expect((sent[0]!.params.reply_markup as any).inline_keyboard[0][0]).toEqual({ text: 'Open AXIOM', url: 'https://t.me/axiom_dev_bot/app' })
    // Sent is sent: draining again sends nothing more, and signing in again queues nothing.
    await t.login(8002, code)
    await drain()
    expect(sentTo(8001)).toHaveLength(1)
  })

  it('a bond paid: the message is written with the activation, and sent', async () => {
    // Another user's bond first: the message names Bob's bond by his own number (#1), not its id.
    await (await t.login(8004)).call('POST', '/mint/create', { body: { amount: 20, days: 30 } })
    const bob = await t.login(8003)
    const created = await bob.call('POST', '/mint/create', { body: { amount: 20, days: 30 } })
    const mintId = Number(created.body.mint.id)
    await drain()
    expect(sentTo(8003)).toHaveLength(0)
    await t.server.markMintPaid(mintId)
    await drain()
    expect(mintId).toBeGreaterThan(1)
    expect(sentTo(8003).map((c) => c.params.text)).toEqual(['Your payment arrived: bond #1 for 20 AXIOM is active.'])
  })

  it('a bond that completes, and a farming link a friend uses, are told to their owners', async () => {
    const owner = await t.login(8200)
    const created = await owner.call('POST', '/mint/create', { body: { amount: 10, days: 10 } })
    const mintId = Number(created.body.mint.id)
    await t.server.markMintPaid(mintId)
    const link = await owner.call('POST', '/farming/create', { body: { amount: 5, days: 10, count_activations: 1, is_multilink: false, is_for_me: false, from_ref_balance: false, from_task_balance: false } })
    expect(link.status, JSON.stringify(link.body)).toBe(200)
    const friend = await t.login(8201)
    expect((await friend.call('GET', '/farming/activation-status', { query: { activation_code: link.body.activation_code } })).body.status).toBe('ACTIVE')
    t.clock.advance(11 * 86_400)
    const again = await t.login(8200)
    await again.call('GET', '/user/me')
    await drain()
    const texts = sentTo(8200).map((c) => c.params.text)
    expect(texts).toContain('User 8201 used your farming link: a bond of 5 AXIOM.')
    expect(texts).toContain('Bond #1 completed: 10 AXIOM and its reward are on your balance.')
  })

  it('an outage or a 429 leaves the message for later; it is sent once when Telegram is back', async () => {
    const s = await t.login(8004)
    const friend = ((await s.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    script.set(8004, [error(500, 'Internal Server Error')])
    await t.login(8005, friend)
    await drain()
    expect(sentTo(8004)).toHaveLength(1)
    // Not due yet: the backoff holds it.
    await drain()
    expect(sentTo(8004)).toHaveLength(1)
    t.clock.advance(10)
    script.set(8004, [tooManyRequests(1)])
    const started = Date.now()
    await drain()
    // The 429's retry_after was waited, then the same message went through once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(sentTo(8004)).toHaveLength(3)
    t.clock.advance(600)
    await drain()
    expect(sentTo(8004)).toHaveLength(3)
  })

  it('a user who blocked the bot is recorded and gets nothing more; one with notifications off gets nothing', async () => {
    const carol = await t.login(8006)
    const code = ((await carol.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    script.set(8006, [BLOCKED])
    await t.login(8007, code)
    await drain()
    expect(sentTo(8006)).toHaveLength(1)
    await t.login(8008, code)
    await drain()
    expect(sentTo(8006)).toHaveLength(1)
    // Back in the bot's chat, /notifications on: the block is lifted.
    expect((await carol.call('POST', '/user/notifications', { body: { enabled: true } })).status).toBe(200)
    await t.login(8012, code)
    await drain()
    expect(sentTo(8006).map((c) => c.params.text)).toEqual(['User 8007 joined AXIOM through your link.', 'User 8012 joined AXIOM through your link.'])

    const dan = await t.login(8009)
    const danCode = ((await dan.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    expect((await dan.call('POST', '/user/notifications', { body: { enabled: false } })).status).toBe(200)
    await t.login(8010, danCode)
    await drain()
    expect(sentTo(8009)).toHaveLength(0)
    expect((await dan.call('POST', '/user/notifications', { body: { enabled: 'no' } })).status).toBe(422)
    expect((await dan.call('POST', '/user/notifications', { body: { enabled: true } })).status).toBe(200)
    await t.login(8011, danCode)
    await drain()
    expect(sentTo(8009)).toHaveLength(1)
  })

  it("a user who has not let the bot write yet is tried again for a while, never recorded as blocking it; sent once they allow it", async () => {
    const cantInitiate = error(403, "Forbidden: bot can't initiate conversation with a user")
    const hal = await t.login(8500)
    const code = ((await hal.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    script.set(8500, [cantInitiate, error(400, 'Bad Request: chat not found')])
    await t.login(8501, code)
    await drain()
    t.clock.advance(10)
    await drain()
    expect(sentTo(8500)).toHaveLength(2)
    const user = await t.server.ctx.db.one('SELECT bot_blocked_at FROM users WHERE telegram_id = ?', 8500)
    expect(user!.bot_blocked_at).toBeNull()
    // They tapped Allow: the next try goes through.
    t.clock.advance(10)
    await drain()
    expect(sentTo(8500)).toHaveLength(3)
    const row = await t.server.ctx.db.one("SELECT o.state FROM outbox o JOIN users u ON u.id = o.user_id WHERE u.telegram_id = ?", 8500)
    expect(row!.state).toBe('sent')

    // One who never allows it: refused after NOT_ALLOWED_TRIES, still not recorded as blocking.
    const ivy = await t.login(8510)
    const ivyCode = ((await ivy.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    script.set(8510, Array.from({ length: NOT_ALLOWED_TRIES }, () => cantInitiate))
    await t.login(8511, ivyCode)
    for (let i = 0; i < NOT_ALLOWED_TRIES + 2; i++) {
      await drain()
      t.clock.advance(60)
    }
    expect(sentTo(8510)).toHaveLength(NOT_ALLOWED_TRIES)
    const refused = await t.server.ctx.db.one("SELECT o.state, o.last_error FROM outbox o JOIN users u ON u.id = o.user_id WHERE u.telegram_id = ?", 8510)
    expect(refused).toMatchObject({ state: 'refused', last_error: "403 Forbidden: bot can't initiate conversation with a user" })
    expect((await t.server.ctx.db.one('SELECT bot_blocked_at FROM users WHERE telegram_id = ?', 8510))!.bot_blocked_at).toBeNull()
  })

  it('paces sends at no more than 25 a second in all', async () => {
    const chats = Array.from({ length: 30 }, (_, i) => 8101 + i)
    for (const chat of chats) await t.login(chat)
    const now = t.clock.now
    for (const chat of chats) {
      const user = await t.server.ctx.db.one('SELECT id FROM users WHERE telegram_id = ?', chat)
      await t.server.ctx.db.run('INSERT INTO outbox (user_id, kind, payload, next_at, created_at) VALUES (?, ?, ?, ?, ?)', user!.id, 'friend_joined', JSON.stringify({ name: `Friend of ${chat}` }), now, now)
    }
    await drain()
    const times = fake.callsOf('sendMessage').filter((c) => chats.includes(Number(c.params.chat_id))).map((c) => c.at)
    expect(times).toHaveLength(30)
    for (let i = 25; i < times.length; i++) expect(times[i]! - times[i - 25]!).toBeGreaterThanOrEqual(1000)
  })

  it('writes to one chat at most once a second, and the other chats are not held behind it', async () => {
    // Three friends join through Fay's link at once, then one through Gil's.
    const fay = await t.login(8400)
    const gil = await t.login(8410)
    const fayCode = ((await fay.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    const gilCode = ((await gil.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    for (const friend of [8401, 8402, 8403]) await t.login(friend, fayCode)
    await t.login(8411, gilCode)
    await drain()
    const calls = fake.callsOf('sendMessage').filter((c) => c.params.chat_id === 8400 || c.params.chat_id === 8410)
    expect(calls.map((c) => c.params.chat_id)).toEqual([8400, 8410, 8400, 8400])
    // Fay's three, in the order her friends joined, each at least a second after the one before.
    expect(sentTo(8400).map((c) => c.params.text)).toEqual(['User 8401 joined AXIOM through your link.', 'User 8402 joined AXIOM through your link.', 'User 8403 joined AXIOM through your link.'])
    const fayTimes = sentTo(8400).map((c) => c.at)
    for (let i = 1; i < fayTimes.length; i++) expect(fayTimes[i]! - fayTimes[i - 1]!).toBeGreaterThanOrEqual(1000)
    expect(calls[1]!.at).toBeLessThan(fayTimes[1]!)
  })

  /** A referrer and `friends` who join through their link, in order: one friend-joined notice each. */
  const referrerWithFriends = async (referrer: number, friends: number[], failFirst: FakeAnswer[]) => {
    const r = await t.login(referrer)
    const code = ((await r.call('GET', '/user/me')).body as { ref_code: string }).ref_code
    script.set(referrer, failFirst)
    for (const friend of friends) await t.login(friend, code)
  }
  const textsTo = (chatId: number) => sentTo(chatId).map((c) => String(c.params.text).split(' ')[1])

  it("a notice waiting out a failed send's back-off holds its user's later ones; they follow it in order", async () => {
    await referrerWithFriends(8700, [8701, 8702, 8703], [error(502, 'Bad Gateway')])
    await drain()
    // The first failed; the other two wait behind it, not ahead of it.
    expect(textsTo(8700)).toEqual(['8701'])
    t.clock.advance(10)
    await drain()
    expect(textsTo(8700)).toEqual(['8701', '8701', '8702', '8703'])
  })

  it('a notice Telegram keeps refusing holds the later ones for its first tries only', async () => {
    const badGateway = error(502, 'Bad Gateway')
    await referrerWithFriends(8800, [8801, 8802], [badGateway, badGateway, badGateway, badGateway])
    for (let round = 1; round < HOLD_BEHIND_TRIES; round++) {
      await drain()
      expect(textsTo(8800)).toEqual(Array(round).fill('8801'))
      t.clock.advance(60)
    }
    // Its last held try fails too: the others go ahead of it, and it follows once Telegram takes it.
    await drain()
    t.clock.advance(60)
    await drain()
    expect(textsTo(8800)).toEqual([...Array(HOLD_BEHIND_TRIES).fill('8801'), '8802', '8801'])
  })
})
