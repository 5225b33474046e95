import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { defaultTelegramSettings, DEV_BOT_TOKEN } from '../../server/main.ts'
import { BLOCKED, chatMember, error, ok, tooManyRequests, type BotApiFake } from '../support/bot-api-fake.ts'
import { COMMUNITY, MINI_APP_LINK as LINK, startCommunityBackend, type BotApiAnswer, type CommunityBackend } from './community-backend.ts'
import { signInitDataFor } from '../support/init-data.ts'
import { startTestServer, type TestServer } from './support.ts'

let backend: CommunityBackend
let fake: BotApiFake
let t: TestServer
/** What getChatMember answers per Telegram user id (default: left). */
let status: Map<number, BotApiAnswer>

beforeAll(async () => {
  backend = await startCommunityBackend()
  ;({ fake, t, status } = backend)
})
afterAll(() => backend.close())
beforeEach(() => status.clear())

const me = async (s: { call: TestServer['call'] }) => (await s.call('GET', '/user/me')).body as { community_participation: boolean; ref_code: string }

describe('community membership from getChatMember', () => {
  it.each([
    ['member', {}, true],
    ['administrator', {}, true],
    ['creator', {}, true],
    ['restricted', { is_member: true }, true],
    ['restricted', { is_member: false }, false],
    ['left', {}, false],
    ['kicked', {}, false],
  ] as const)('%s %j → community_participation %s, asked at sign-in', async (st, extra, expected) => {
    const id = 5000 + Math.floor(Math.random() * 100000)
    status.set(id, ok(chatMember(id, st, extra)))
    const s = await t.login(id)
    const asked = fake.callsOf('getChatMember').filter((c) => c.params.user_id === id)
    expect(asked.length).toBeGreaterThanOrEqual(1)
    expect(asked[0]!.params.chat_id).toBe(COMMUNITY)
    expect((await me(s)).community_participation).toBe(expected)
  })

  it('a failed check keeps the last known value, and sign-in still succeeds', async () => {
    const id = 7001
    status.set(id, ok(chatMember(id, 'member')))
    await t.login(id)
    status.set(id, error(500, 'Internal Server Error'))
    const s = await t.login(id)
    expect((await me(s)).community_participation).toBe(true)
    status.set(id, error(400, 'Bad Request: chat not found'))
    const again = await t.login(id)
    expect((await me(again)).community_participation).toBe(true)
  })

  it('a 429 is waited out (retry_after) and the answer used', async () => {
    const id = 7002
    let first = true
    status.set(id, ok(chatMember(id, 'member')))
    fake.on('getChatMember', (p) => {
      if (Number(p.user_id) === id && first) {
        first = false
        return tooManyRequests(1)
      }
      return backend.answerFromStatus(p)
    })
    const started = Date.now()
    const s = await t.login(id)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(fake.callsOf('getChatMember').filter((c) => c.params.user_id === id)).toHaveLength(2)
    expect((await me(s)).community_participation).toBe(true)
    fake.on('getChatMember', backend.answerFromStatus)
  })

  it('/user/me asks again while false, at most once per 10 s: join → reload lifts the gate', async () => {
    const id = 7003
    const s = await t.login(id)
    const asked = () => fake.callsOf('getChatMember').filter((c) => c.params.user_id === id).length
    const afterLogin = asked()
    expect((await me(s)).community_participation).toBe(false)
    expect(asked()).toBe(afterLogin)
    status.set(id, ok(chatMember(id, 'member')))
    t.clock.advance(10)
    expect((await me(s)).community_participation).toBe(true)
    expect(asked()).toBe(afterLogin + 1)
    // A member is not asked again on every /user/me.
    t.clock.advance(60)
    await me(s)
    expect(asked()).toBe(afterLogin + 1)
  })

  it("a user who was never in the chat (400 user not found) is not a member, and leaving is seen at the next sign-in", async () => {
    const id = 7004
    status.set(id, ok(chatMember(id, 'member')))
    await t.login(id)
    status.set(id, error(400, 'Bad Request: user not found'))
    expect((await me(await t.login(id))).community_participation).toBe(false)
    status.set(id, ok(chatMember(id, 'member')))
    await t.login(id)
    status.set(id, ok(chatMember(id, 'left')))
    expect((await me(await t.login(id))).community_participation).toBe(false)
  })

  it("task 1's validation asks Telegram: refused while left, accepted once a member", async () => {
    const id = 7005
    const s = await t.login(id)
    expect((await s.call('POST', '/task/start', { body: { task_id: 1 } })).status).toBe(200)
    const refused = await s.call('POST', '/task/validate', { body: { task_id: 1 } })
    expect(refused.status).toBe(422)
    expect(refused.body.msg).toMatch(/join the community/i)
    status.set(id, ok(chatMember(id, 'member')))
    const done = await s.call('POST', '/task/validate', { body: { task_id: 1 } })
    expect(done.status).toBe(200)
    expect((await me(s)).community_participation).toBe(true)
  })

  it('the Bot API being down never becomes a 5xx at sign-in or on /user/me', async () => {
    const down = await startTestServer({ telegram: { ...defaultTelegramSettings(), apiRoot: 'http://127.0.0.1:9', communityChat: COMMUNITY, miniAppLink: LINK, requestTimeoutMs: 1_000 } })
    try {
      const s = await down.login(7006)
      const res = await s.call('GET', '/user/me')
      expect(res.status).toBe(200)
      expect(res.body.community_participation).toBe(false)
    } finally {
      await down.close()
    }
  })
})

describe('/user/share-message: savePreparedInlineMessage', () => {
  it("answers Telegram's prepared message id, for an invitation with the user's referral link", async () => {
    fake.on('savePreparedInlineMessage', () => ok({ id: 'prepared-42', expiration_date: 1_900_000_000 }))
    const s = await t.login(7101)
    const { ref_code } = await me(s)
    const res = await s.call('POST', '/user/share-message')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ inline_message_id: 'prepared-42' })
    const sent = fake.callsOf('savePreparedInlineMessage').at(-1)!.params as any
    expect(sent.user_id).toBe(7101)
    expect(sent).toMatchObject({ allow_user_chats: true, allow_bot_chats: true, allow_group_chats: true, allow_channel_chats: true })
    const link = `${LINK}?startapp=${ref_code}`
    expect(sent.result.type).toBe('article')
    expect(sent.result.input_message_content.message_text).toContain(link)
    expect(sent.result.reply_markup.inline_keyboard[0][0]).toEqual({ text: 'Open AXIOM', url: link })
  })

  it("speaks the user's language (initData's language_code)", async () => {
    fake.on('savePreparedInlineMessage', () => ok({ id: 'prepared-ru', expiration_date: 1_900_000_000 }))
    const init = signInitDataFor({ id: 7102, first_name: 'Иван', language_code: 'ru' }, t.clock.now, DEV_BOT_TOKEN)
    const pair = (await t.call('POST', '/auth/register', { body: { init_data: init } })).body as { token: string }
    await t.call('POST', '/user/share-message', { token: pair.token })
    const sent = fake.callsOf('savePreparedInlineMessage').at(-1)!.params as any
    expect(sent.result.input_message_content.message_text).toMatch(/Присоединяйся/)
    expect(sent.result.reply_markup.inline_keyboard[0][0].text).toBe('Открыть AXIOM')
  })

  it('a refused save, a blocked bot or an unreachable Bot API is a 424 with msg, never an invented id', async () => {
    const s = await t.login(7103)
    fake.on('savePreparedInlineMessage', () => error(400, 'Bad Request: BUTTON_URL_INVALID'))
    const refused = await s.call('POST', '/user/share-message')
    expect(refused.status).toBe(424)
    expect(refused.body).toEqual({ msg: expect.any(String) })
    fake.on('savePreparedInlineMessage', () => BLOCKED)
    expect((await s.call('POST', '/user/share-message')).status).toBe(424)
    fake.on('savePreparedInlineMessage', () => error(502, 'Bad Gateway'))
    const down = await s.call('POST', '/user/share-message')
    expect(down.status).toBe(424)
    expect(down.body.inline_message_id).toBeUndefined()
  })
})
