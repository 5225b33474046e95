import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { chatMember, ok, type BotApiFake } from '../support/bot-api-fake.ts'
import { signInitDataFor } from '../support/init-data.ts'
import { startCommunityBackend, type BotApiAnswer, type CommunityBackend } from './community-backend.ts'
import type { TestServer } from './support.ts'

/**
 * POST /api/telegram/chat-member: what the bot learns from chat_member and my_chat_member updates,
 * told to the backend. Sent here as raw requests with init data signed by the tests' own HMAC.
 */
let backend: CommunityBackend
let fake: BotApiFake
let t: TestServer
let status: Map<number, BotApiAnswer>

beforeAll(async () => {
  backend = await startCommunityBackend()
  ;({ fake, t, status } = backend)
})
afterAll(() => backend.close())
beforeEach(() => status.clear())

const report = (telegramId: number, body: Record<string, unknown>, token = DEV_BOT_TOKEN) =>
  fetch(`${t.url}/api/telegram/chat-member`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ init_data: signInitDataFor({ id: telegramId, first_name: `User ${telegramId}` }, t.clock.now, token), ...body }),
  })

const community = async (s: { call: TestServer['call'] }) => ((await s.call('GET', '/user/me')).body as { community_participation: boolean }).community_participation
const userRow = (telegramId: number) => t.server.ctx.db.one('SELECT id, community, notifications, bot_blocked_at FROM users WHERE telegram_id = ?', telegramId)

describe('the community: a member who leaves', () => {
  it('is no longer a member as soon as the bot reports it: the backend asks Telegram, and /user/me says so', async () => {
    const id = 61_001
    status.set(id, ok(chatMember(id, 'member')))
    const s = await t.login(id)
    expect(await community(s)).toBe(true)

    // They leave. Without a report /user/me would go on saying true: it asks again only while false.
    status.set(id, ok(chatMember(id, 'left')))
    expect(await community(s)).toBe(true)
    const asked = fake.callsOf('getChatMember').length
    const res = await report(id, { chat: 'community', status: 'left' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ community: false })
    expect(fake.callsOf('getChatMember').length).toBe(asked + 1)
    expect(await community(s)).toBe(false)
  })

  it("believes Telegram, not the report: a 'left' report for someone still in the chat keeps them a member", async () => {
    const id = 61_002
    status.set(id, ok(chatMember(id, 'member')))
    const s = await t.login(id)
    const res = await report(id, { chat: 'community', status: 'left' })
    expect(await res.json()).toEqual({ community: true })
    expect(await community(s)).toBe(true)
  })
})

describe('the bot chat: blocked and unblocked', () => {
  it("'kicked' records the block, and any other status lifts it; notifications turned off stay off", async () => {
    const id = 61_010
    const s = await t.login(id)
    expect((await s.call('POST', '/user/notifications', { body: { enabled: false } })).status).toBe(200)

    expect((await report(id, { chat: 'bot', status: 'kicked' })).status).toBe(200)
    const blocked = await userRow(id)
    expect(blocked!.bot_blocked_at).not.toBeNull()

    expect(await (await report(id, { chat: 'bot', status: 'member' })).json()).toEqual({ bot_blocked: false })
    const after = await userRow(id)
    expect(after!.bot_blocked_at).toBeNull()
    expect(Number(after!.notifications)).toBe(0)
  })
})

describe('what the route refuses', () => {
  it('makes no account for a Telegram user who has none (404)', async () => {
    const id = 61_020
    const res = await report(id, { chat: 'community', status: 'member' })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ msg: 'No AXIOM account for this Telegram user' })
    expect(await userRow(id)).toBeUndefined()
  })

  it('refuses init data not signed with the bot token (401) and changes nothing', async () => {
    const id = 61_021
    status.set(id, ok(chatMember(id, 'member')))
    await t.login(id)
    const asked = fake.callsOf('getChatMember').length
    const res = await report(id, { chat: 'bot', status: 'kicked' }, '123456:another-bots-token')
    expect(res.status).toBe(401)
    expect((await userRow(id))!.bot_blocked_at).toBeNull()
    expect(fake.callsOf('getChatMember').length).toBe(asked)
  })

  it.each([
    [{ chat: 'channel', status: 'left' }, 'chat must be one of community, bot'],
    [{ chat: 'community' }, 'status must be one of creator, administrator, member, restricted, left, kicked'],
    [{ chat: 'bot', status: 'banned' }, 'status must be one of creator, administrator, member, restricted, left, kicked'],
  ])('answers %j with 422 and a message', async (body, msg) => {
    const id = 61_030
    await t.login(id)
    const res = await report(id, body)
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ msg })
  })
})
