import { describe, expect, it } from 'vitest'
import { createAxiomBot } from '../../bot/bot.ts'
import { botConfigFromEnv } from '../../bot/config.ts'
import { BOT_LANGUAGES, wordsFor } from '../../bot/i18n.ts'
import { LANGUAGES } from '../../core/domain/languages.ts'

/** The bot's languages: the app's (core/domain/languages.ts), chosen by the same rule, each with its commands. */
describe("the bot's languages", () => {
  it('speaks each of the app’s languages, chosen from language_code as the app chooses, English for any other', () => {
    expect(Object.keys(BOT_LANGUAGES).sort()).toEqual([...LANGUAGES].sort())
    expect(wordsFor('uk').open).toBe('Відкрити AXIOM')
    expect(wordsFor('ru-RU')).toBe(BOT_LANGUAGES.ru)
    for (const code of ['de', 'zh-hans', '', undefined]) expect(wordsFor(code)).toBe(BOT_LANGUAGES.en)
    // Every language its own words, every command described in it.
    const starts = new Set(LANGUAGES.map((l) => BOT_LANGUAGES[l].start))
    expect(starts.size).toBe(LANGUAGES.length)
    for (const l of LANGUAGES) expect(Object.keys(BOT_LANGUAGES[l].commands)).toEqual(['start', 'balance', 'bonds', 'notifications', 'help'])
  })

  it('sets its commands in English by default and in each other language under its two-letter code', async () => {
    const { bot, setUp } = createAxiomBot(botConfigFromEnv({ BOT_TOKEN: '1:x', TELEGRAM_API_ROOT: 'http://127.0.0.1:9' }))
    // The Bot API's side, answered here: what setUp asked for, in order.
    const calls: Array<{ method: string; payload: Record<string, unknown> }> = []
    bot.api.config.use(async (_prev, method, payload) => {
      calls.push({ method, payload: payload as Record<string, unknown> })
      return { ok: true, result: true } as never
    })
    await setUp()
    const commands = calls.filter((c) => c.method === 'setMyCommands')
    expect(commands.map((c) => c.payload.language_code ?? 'default')).toEqual(LANGUAGES.map((l) => (l === 'en' ? 'default' : l.slice(0, 2))))
    for (const [i, l] of LANGUAGES.entries())
      expect((commands[i]!.payload.commands as Array<{ description: string }>)[0]!.description).toBe(BOT_LANGUAGES[l].commands.start)
  })
})
