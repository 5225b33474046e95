import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { big, getRow } from '../../server/db/sql.ts'
import { createBotApi } from '../../server/telegram/bot-api.ts'
import { PER_CHAT_GAP_MS, queueNotice, startOutboxSender, type PacingClock } from '../../server/telegram/outbox.ts'
import { ok, startBotApiFake, type BotApiFake } from '../support/bot-api-fake.ts'
import { startTestServer, type TestServer } from './support.ts'

// A server without Telegram settings has no sender of its own: the one here is the only one.
let fake: BotApiFake
let t: TestServer
beforeAll(async () => {
  fake = await startBotApiFake(DEV_BOT_TOKEN)
  fake.on('sendMessage', (p) => ok({ message_id: 1, date: 1, chat: { id: p.chat_id, type: 'private' }, text: p.text }))
  t = await startTestServer()
})
afterAll(async () => {
  await t.close()
  await fake.close()
})

/**
 * A monotonic clock as a loaded machine has one: every read is a little later than the one before
 * (`step` ms), and a wait ends up to a millisecond before it was asked to (`early` ms), as Node's
 * timers may, their start being the event loop's cached time.
 */
const loadedMachineClock = (start: number, step: number, early: number): PacingClock & { elapsed(): number } => {
  let now = start
  return {
    now: () => (now += step),
    sleep: (ms) => {
      now += Math.max(0, ms - early)
      return new Promise((r) => setImmediate(r))
    },
    elapsed: () => now - start,
  }
}

it("one chat's notices leave in the order they were written, even when a wait ends early", async () => {
  const userId = async (telegramId: number) => {
    await t.login(telegramId)
    return big((await getRow(t.server.ctx.db, 'SELECT id FROM users WHERE telegram_id = ?', telegramId))!, 'id')
  }
  const fay = await userId(8500)
  const gil = await userId(8510)
  const api = createBotApi({ token: DEV_BOT_TOKEN, apiRoot: fake.url, maxRetryAfterS: 1, timeoutSeconds: 5 })
  await fc.assert(
    fc.asyncProperty(
      fc.double({ min: 0, max: 1000, noNaN: true }),
      fc.double({ min: 0.01, max: 0.5, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      async (start, step, early) => {
        const before = fake.callsOf('sendMessage').length
        for (const name of ['First', 'Second', 'Third']) await queueNotice(t.server.ctx, fay, 'friend_joined', { name })
        await queueNotice(t.server.ctx, gil, 'friend_joined', { name: 'Other' })
        const clock = loadedMachineClock(start, step, early)
        const sender = startOutboxSender(t.server.ctx, api, { perSecond: 30, held: () => true, idleMs: 60_000, maxBackoffS: 1, miniAppLink: 'https://t.me/axiom_dev_bot/app', clock })
        try {
          expect(await sender.drain()).toBe(4)
        } finally {
          await sender.stop()
        }
        const sent = fake.callsOf('sendMessage').slice(before)
        expect(sent.filter((c) => c.params.chat_id === 8500).map((c) => c.params.text)).toEqual([
          'First joined AXIOM through your link.',
          'Second joined AXIOM through your link.',
          'Third joined AXIOM through your link.',
        ])
        // Gil's went between Fay's first and second, not behind all of hers; and Fay's three took two gaps.
        expect(sent.map((c) => c.params.chat_id)).toEqual([8500, 8510, 8500, 8500])
        expect(clock.elapsed()).toBeGreaterThanOrEqual(2 * PER_CHAT_GAP_MS - 2)
      },
    ),
    { numRuns: 40 },
  )
})
