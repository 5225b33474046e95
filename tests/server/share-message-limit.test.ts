import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS, defaultTelegramSettings, DEV_BOT_TOKEN } from '../../server/main.ts'
import { ok, startBotApiFake, type BotApiFake } from '../support/bot-api-fake.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'
import { rawRequest } from './raw-http.ts'
import { startTestServer, type Session, type TestServer } from './support.ts'

/**
 * Each POST /user/share-message is a call to Telegram's savePreparedInlineMessage, paid from the
 * bot's own Bot API budget: a user gets 10 a minute (rule `share`), beyond them 429 before Telegram
 * is asked. The Bot API is a fake written from Telegram's documentation, counting the calls.
 */

let fake: BotApiFake
let t: TestServer
beforeAll(async () => {
  fake = await startBotApiFake(DEV_BOT_TOKEN)
  let n = 0
  fake.on('savePreparedInlineMessage', (params) => ok({ id: `prepared-${++n}`, expiration_date: Number(params.user_id) }))
  // The other rules relaxed: only the share rule, at its default, is under test.
  t = await startTestServer({
    rateLimits: { ...RELAXED_RATE_LIMITS, share: DEFAULT_RATE_LIMITS.share },
    telegram: { ...defaultTelegramSettings(), apiRoot: fake.url },
  })
})
afterAll(async () => {
  await t.close()
  await fake.close()
})

const share = (who: Session) =>
  rawRequest(t.server.port, ['POST /api/user/share-message HTTP/1.1', 'Host: 127.0.0.1', `Authorization: Bearer ${who.token}`, 'Content-Length: 0', '', ''].join('\r\n'))

describe('prepared share messages are limited per user', () => {
  it('the 11th in a minute is 429 with Retry-After, and Telegram is not asked; another user is unaffected', async () => {
    const a = await t.login(1)
    const max = DEFAULT_RATE_LIMITS.share.max
    expect(max).toBe(10)
    const replies = []
    for (let i = 0; i < max + 5; i++) replies.push(await share(a))
    expect(replies.slice(0, max).map((r) => r.status)).toEqual(Array(max).fill(200))
    for (const r of replies.slice(max)) {
      expect(r.status).toBe(429)
      expect(r.json.msg).toMatch(/^Too many requests, try again in \d+ s$/)
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    }
    expect(fake.callsOf('savePreparedInlineMessage')).toHaveLength(max)

    const b = await t.login(2)
    expect((await share(b)).status).toBe(200)
    expect(fake.callsOf('savePreparedInlineMessage')).toHaveLength(max + 1)
  })
})
