import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTelegramHost, type RunningTelegramHost } from '../../stand-ins/telegram-host/index.ts'
import { TEST_BOT_TOKEN } from './support.ts'

/** Raw Bot API calls, as the docs describe them (not through any client library). */
const call = async (base: string, token: string, method: string, params: Record<string, unknown> = {}) => {
  const res = await fetch(`${base}bot${token}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) })
  return { status: res.status, body: (await res.json()) as any }
}
const post = async (base: string, path: string, body: unknown) => {
  const res = await fetch(new URL(path, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}

describe('the host emulator as a Bot API server', () => {
  let host: RunningTelegramHost
  const api = (method: string, params?: Record<string, unknown>) => call(host.url, TEST_BOT_TOKEN, method, params)
  beforeAll(async () => {
    host = await startTelegramHost({ port: 0, appUrl: 'http://127.0.0.1:5999/', botToken: TEST_BOT_TOKEN, botUsername: 'axiom_test_bot' })
  })
  afterAll(() => host.close())

  it("answers with Telegram's envelopes: ok/result, and ok:false with error_code and description", async () => {
    const me = await api('getMe')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ ok: true, result: { is_bot: true, username: 'axiom_test_bot' } })
    expect(await call(host.url, '1:wrong', 'getMe')).toEqual({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } })
    expect(await api('noSuchMethod')).toEqual({ status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } })
    expect(await api('sendMessage', { chat_id: 1, text: '' })).toEqual({ status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message text is empty' } })
  })

  it('getChatMember answers what Join and Leave set; an unknown chat or user is a 400', async () => {
    await post(host.url, '/launch', { user: { id: 3001, first_name: 'Ann' } })
    const ask = () => api('getChatMember', { chat_id: '@axiom_community', user_id: 3001 })
    expect((await ask()).body.result.status).toBe('left')
    await post(host.url, '/join-community', { user_id: 3001 })
    expect((await ask()).body.result).toMatchObject({ status: 'member', user: { id: 3001 } })
    await post(host.url, '/community', { user_id: 3001, member: false })
    expect((await ask()).body.result.status).toBe('left')
    expect((await api('getChatMember', { chat_id: '@other', user_id: 3001 })).body).toMatchObject({ ok: false, error_code: 400, description: 'Bad Request: chat not found' })
    expect((await api('getChatMember', { chat_id: '@axiom_community', user_id: 999 })).status).toBe(400)
  })

  it('sends chat_member updates on Join and Leave only to a consumer that asked for them by name', async () => {
    await post(host.url, '/launch', { user: { id: 3005, first_name: 'Cai' } })
    const drain = async (params: Record<string, unknown>) => {
      const got = await api('getUpdates', { timeout: 0, ...params })
      const updates = got.body.result as Array<{ update_id: number; chat_member?: any }>
      if (updates.length > 0) await api('getUpdates', { timeout: 0, offset: updates.at(-1)!.update_id + 1 })
      return updates
    }
    await drain({})
    // The default set (no allowed_updates given) leaves chat_member out, as Telegram's does.
    await post(host.url, '/join-community', { user_id: 3005 })
    expect((await drain({})).filter((u) => u.chat_member)).toEqual([])

    await drain({ allowed_updates: ['message', 'chat_member'] })
    await post(host.url, '/community', { user_id: 3005, member: false })
    const [update] = (await drain({})).filter((u) => u.chat_member)
    expect(update!.chat_member).toMatchObject({
      chat: { type: 'supergroup', username: 'axiom_community' },
      from: { id: 3005, is_bot: false, first_name: 'Cai' },
      old_chat_member: { user: { id: 3005 }, status: 'member' },
      new_chat_member: { user: { id: 3005 }, status: 'left' },
    })
    expect(update!.chat_member.chat.id).toBeLessThan(0)
    // No change, no update.
    await post(host.url, '/community', { user_id: 3005, member: false })
    expect((await drain({})).filter((u) => u.chat_member)).toEqual([])
  })

  it("a user who opened the app but never started the bot: sendMessage is Telegram's 403 until they allow it (requestWriteAccess), and the launch says so", async () => {
    const first = await post(host.url, '/launch', { user: { id: 3006, first_name: 'Dee' } })
    const userOf = (initData: string) => JSON.parse(new URLSearchParams(initData).get('user')!)
    expect(userOf(first.body.initData).allows_write_to_pm).toBe(false)
    expect(await api('sendMessage', { chat_id: 3006, text: 'Your payment arrived' })).toEqual({
      status: 403,
      body: { ok: false, error_code: 403, description: "Forbidden: bot can't initiate conversation with a user" },
    })
    expect((await post(host.url, '/write-access', { user_id: 3006, allowed: true })).body).toEqual({ ok: true, can_write: true })
    expect((await api('sendMessage', { chat_id: 3006, text: 'Your payment arrived' })).body.ok).toBe(true)
    const again = await post(host.url, '/launch', { user: { id: 3006, first_name: 'Dee' } })
    expect(userOf(again.body.initData).allows_write_to_pm).toBe(true)
  })

  it('savePreparedInlineMessage stores the message the page shows when it is shared', async () => {
    await post(host.url, '/launch', { user: { id: 3002, first_name: 'Ben' } })
    const result = { type: 'article', id: 'a1', title: 'Invite', input_message_content: { message_text: 'Join me' }, reply_markup: { inline_keyboard: [[{ text: 'Open', url: 'https://t.me/axiom_test_bot/app?startapp=R1' }]] } }
    const saved = await api('savePreparedInlineMessage', { user_id: 3002, result, allow_user_chats: true })
    expect(saved.body.ok).toBe(true)
    expect(saved.body.result).toEqual({ id: expect.any(String), expiration_date: expect.any(Number) })
    const shown = await fetch(new URL(`/prepared/${saved.body.result.id}`, host.url))
    expect(((await shown.json()) as any).result.input_message_content.message_text).toBe('Join me')
    expect((await api('savePreparedInlineMessage', { user_id: 3002, result })).body.description).toBe('Bad Request: PEER_TYPES_INVALID')
  })

  it('a ?start= link sends /start <code> to the bot: getUpdates long-polls it; sendMessage answers in the chat; a blocked user is a 403', async () => {
    const polled = api('getUpdates', { timeout: 5 })
    await new Promise((r) => setTimeout(r, 100))
    await post(host.url, '/launch', { user: { id: 3003, first_name: 'Cy', language_code: 'ru' }, link: 'https://t.me/axiom_test_bot?start=REF9' })
    const updates = (await polled).body.result as any[]
    const u = updates.find((x) => x.message.from.id === 3003)
    expect(u.message).toMatchObject({ text: '/start REF9', chat: { id: 3003, type: 'private' }, from: { language_code: 'ru' }, entities: [{ type: 'bot_command', offset: 0, length: 6 }] })
    // Confirmed by the next offset: not delivered again.
    const next = await api('getUpdates', { offset: u.update_id + 1, timeout: 0 })
    expect(next.body.result.some((x: any) => x.update_id === u.update_id)).toBe(false)

    const sent = await api('sendMessage', { chat_id: 3003, text: 'Hi', reply_markup: { inline_keyboard: [[{ text: 'Open', url: 'https://t.me/axiom_test_bot/app?startapp=REF9' }]] } })
    expect(sent.body.result).toMatchObject({ chat: { id: 3003 }, text: 'Hi' })
    const chat = (await (await fetch(new URL('/chat?user=3003', host.url))).json()) as any
    expect(chat.messages.map((m: any) => [m.from, m.text])).toEqual([['user', '/start REF9'], ['bot', 'Hi']])
    expect((await api('sendMessage', { chat_id: 424242, text: 'x' })).body.description).toBe('Bad Request: chat not found')
    await post(host.url, '/chat/block', { user_id: 3003, blocked: true })
    expect(await api('sendMessage', { chat_id: 3003, text: 'x' })).toEqual({ status: 403, body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' } })
    await post(host.url, '/chat/block', { user_id: 3003, blocked: false })
  })

  it('one consumer of updates: a second getUpdates ends the first with 409, and getUpdates while a webhook is set is a 409', async () => {
    const first = api('getUpdates', { timeout: 5 })
    await new Promise((r) => setTimeout(r, 100))
    const second = api('getUpdates', { timeout: 1 })
    expect((await first).body).toMatchObject({ ok: false, error_code: 409, description: expect.stringContaining('terminated by other getUpdates request') })
    await second

    const got: Array<{ secret: unknown; update: any }> = []
    const hook = createServer((req, res) => {
      let raw = ''
      req.on('data', (c) => (raw += c))
      req.on('end', () => {
        got.push({ secret: req.headers['x-telegram-bot-api-secret-token'], update: JSON.parse(raw) })
        res.end()
      })
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r))
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`
      expect((await api('setWebhook', { url, secret_token: 's3cret' })).body.result).toBe(true)
      expect((await api('getUpdates')).status).toBe(409)
      await post(host.url, '/chat', { user: { id: 3004, first_name: 'Di' }, text: '/help' })
      await expect.poll(() => got.find((g) => g.update.message?.text === '/help')).toMatchObject({ secret: 's3cret' })
    } finally {
      await api('deleteWebhook')
      hook.close()
    }
  })

  it('429s beyond the per-second limit, with retry_after', async () => {
    const limited = await startTelegramHost({ port: 0, appUrl: 'http://127.0.0.1:5999/', botToken: TEST_BOT_TOKEN, botUsername: 'axiom_test_bot' })
    try {
      await post(limited.url, '/chat', { user: { id: 3005, first_name: 'Ed' }, text: '/start' })
      const answers = await Promise.all(Array.from({ length: 35 }, (_, i) => call(limited.url, TEST_BOT_TOKEN, 'sendMessage', { chat_id: 3005, text: `n${i}` })))
      const refused = answers.filter((a) => a.status === 429)
      expect(refused.length).toBeGreaterThanOrEqual(5)
      expect(refused[0]!.body).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } })
    } finally {
      await limited.close()
    }
  })
})
