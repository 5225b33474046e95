import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildLaunch, startTelegramHost, THEMES, type RunningTelegramHost } from '../../stand-ins/telegram-host/index.ts'
import { hasValidHash, readFields } from '../support/init-data.ts'
import { fakeAdmin, TEST_BOT_TOKEN } from './support.ts'

const APP_URL = 'http://127.0.0.1:5999/'

const post = async (base: string, path: string, body: unknown) => {
  const res = await fetch(new URL(path, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}

/** The launch fragment as telegram-web-app.js reads it (split on & and =, then decodeURIComponent). */
const hashParams = (hash: string) => {
  const out: Record<string, string> = {}
  for (const part of hash.split('&')) {
    const [k, v = ''] = part.split('=')
    out[decodeURIComponent(k!)] = decodeURIComponent(v.replace(/\+/g, '%20'))
  }
  return out
}

describe('telegram host: POST /launch', () => {
  let host: RunningTelegramHost
  const admin = fakeAdmin()
  beforeAll(async () => {
    host = await startTelegramHost({ port: 0, appUrl: APP_URL, botToken: TEST_BOT_TOKEN, admin, botUsername: 'axiom_test_bot', appShortName: 'axiom' })
  })
  afterAll(() => host.close())

  it('signs valid initData for the chosen user, language and start parameter', async () => {
    const r = await post(host.url, '/launch', {
      user: { id: 4_503_599_627_370_000, first_name: 'Алиса', language_code: 'ru' },
      start_param: 'farm_Xk3_a9Qp',
      version: '7.10',
      platform: 'android',
      color_scheme: 'dark',
    })
    expect(r.status).toBe(200)
    const p = hashParams(r.body.hash)
    expect(r.body.url).toBe(`${APP_URL}#${r.body.hash}`)
    expect(p.tgWebAppData).toBe(r.body.initData)
    expect(hasValidHash(p.tgWebAppData!, TEST_BOT_TOKEN)).toBe(true)
    expect(hasValidHash(p.tgWebAppData!, '7000000001:some-other-bot')).toBe(false)
    const data = readFields(p.tgWebAppData!)
    expect(data.user).toMatchObject({ id: 4_503_599_627_370_000, first_name: 'Алиса', language_code: 'ru' })
    expect(data.fields.start_param).toBe('farm_Xk3_a9Qp')
    expect(Math.abs(Number(data.fields.auth_date) * 1000 - Date.now())).toBeLessThan(60_000)
    expect(p.tgWebAppVersion).toBe('7.10')
    expect(p.tgWebAppPlatform).toBe('android')
    expect(p.tgWebAppStartParam).toBe('farm_Xk3_a9Qp')
    expect(JSON.parse(p.tgWebAppThemeParams!)).toEqual(THEMES.dark)
  })

  it('defaults to version 8.0, ios, the light theme and no start parameter', async () => {
    const r = await post(host.url, '/launch', { user: { id: '1001', first_name: 'Alice' } })
    expect(r.status).toBe(200)
    const p = hashParams(r.body.hash)
    const data = readFields(p.tgWebAppData!)
    expect(data.user?.id).toBe(1001)
    expect(data.fields.start_param).toBeUndefined()
    expect(p.tgWebAppStartParam).toBe('')
    expect(p.tgWebAppVersion).toBe('8.0')
    expect(p.tgWebAppPlatform).toBe('ios')
    expect(JSON.parse(p.tgWebAppThemeParams!)).toEqual(THEMES.light)
  })

  it('launches from a t.me link as Telegram routes it: a direct link hands its startapp to the app', async () => {
    const direct = await post(host.url, '/launch', {
      user: { id: 1002, first_name: 'Bob' },
      link: 'https://t.me/axiom_test_bot/axiom?startapp=Xk3_a9Qp',
    })
    expect(direct.status).toBe(200)
    expect(direct.body).toMatchObject({ opens: 'mini-app', start_param: 'Xk3_a9Qp' })
    const p = hashParams(direct.body.hash)
    expect(readFields(p.tgWebAppData!).fields.start_param).toBe('Xk3_a9Qp')
    expect(p.tgWebAppStartParam).toBe('Xk3_a9Qp')

    // t.me/<bot>?startapp= opens the bot's main mini app with the parameter too.
    const main = await post(host.url, '/launch', { user: { id: 1002, first_name: 'Bob' }, link: 'https://t.me/Axiom_Test_Bot?startapp=farm_K7Q2M9XW4P' })
    expect(main.body).toMatchObject({ opens: 'mini-app', start_param: 'farm_K7Q2M9XW4P' })
  })

  it('a t.me/<bot>?start= link opens the bot chat: the code goes to the bot, and the app gets no start parameter', async () => {
    const r = await post(host.url, '/launch', { user: { id: 1003, first_name: 'Carol' }, link: 'https://t.me/axiom_test_bot?start=Xk3_a9Qp' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ opens: 'bot-chat', start_param: '', bot_start: 'Xk3_a9Qp' })
    const p = hashParams(r.body.hash)
    expect(readFields(p.tgWebAppData!).fields.start_param).toBeUndefined()
    expect(p.tgWebAppStartParam).toBe('')
  })

  it('refuses a link that does not lead into this bot, or a link and a start parameter together', async () => {
    const user = { id: 1, first_name: 'A' }
    const bad = [
      { user, link: 'https://t.me/other_bot/axiom?startapp=X' },
      { user, link: 'https://t.me/axiom_test_bot/otherapp?startapp=X' },
      { user, link: 'https://example.org/axiom_test_bot/axiom?startapp=X' },
      { user, link: 'tg://resolve?domain=axiom_test_bot' },
      { user, link: 'https://t.me/axiom_test_bot/axiom?startapp=has%20space' },
      { user, link: 'not a link' },
      { user, link: 42 },
      { user, link: 'https://t.me/axiom_test_bot/axiom?startapp=X', start_param: 'Y' },
    ]
    for (const body of bad) {
      const r = await post(host.url, '/launch', body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(typeof r.body.error).toBe('string')
    }
  })

  it('refuses bad launch requests with 400', async () => {
    const bad = [
      {},
      { user: { id: 0, first_name: 'A' } },
      { user: { id: 2 ** 53, first_name: 'A' } },
      { user: { id: 1, first_name: '' } },
      { user: { id: 1, first_name: 'A', language_code: 'english!' } },
      { user: { id: 1, first_name: 'A' }, start_param: 'has space' },
      { user: { id: 1, first_name: 'A' }, version: 'latest' },
      { user: { id: 1, first_name: 'A' }, platform: 'nokia' },
      { user: { id: 1, first_name: 'A' }, color_scheme: 'blue' },
    ]
    for (const body of bad) {
      const r = await post(host.url, '/launch', body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(typeof r.body.error).toBe('string')
    }
    const res = await fetch(new URL('/launch', host.url), { method: 'POST', body: '{not json' })
    expect(res.status).toBe(400)
  })

  it('serves the page with its config but never the bot token', async () => {
    const page = await (await fetch(host.url)).text()
    const script = await (await fetch(new URL('/host.js', host.url))).text()
    expect(page).toContain('data-testid="host-log"')
    expect(page).toContain('axiom_test_bot')
    expect(page).toContain(APP_URL)
    expect(page).not.toContain(TEST_BOT_TOKEN)
    expect(script).not.toContain(TEST_BOT_TOKEN)
    expect(page).not.toContain('__HOST_CONFIG__')
  })

  it('marks a user a member through the admin on POST /join-community', async () => {
    const r = await post(host.url, '/join-community', { user_id: 4242 })
    expect(r.status).toBe(200)
    expect(admin.calls).toContainEqual([4242, true])
    const off = await post(host.url, '/community', { user_id: '4242', member: false })
    expect(off.status).toBe(200)
    expect(admin.calls).toContainEqual([4242, false])
    expect((await post(host.url, '/join-community', { user_id: 'x' })).status).toBe(400)
  })

  it('joins and leaves in its Bot API without an admin, and reports what the admin said', async () => {
    const bare = await startTelegramHost({ appUrl: APP_URL, botToken: TEST_BOT_TOKEN })
    const failing = await startTelegramHost({
      appUrl: APP_URL,
      botToken: TEST_BOT_TOKEN,
      admin: {
        setMember: () => {
          throw Object.assign(new Error('No user with Telegram id 7'), { statusCode: 404 })
        },
      },
    })
    try {
      const joined = await post(bare.url, '/join-community', { user_id: 7 })
      expect(joined.status).toBe(200)
      expect(joined.body).toMatchObject({ member: true, backend: 'not wired' })
      expect(bare.botApi.members.get(7)).toBe('member')
      const r = await post(failing.url, '/join-community', { user_id: 7 })
      expect(r.status).toBe(200)
      expect(r.body.backend).toBe('unknown user')
      expect(failing.botApi.members.get(7)).toBe('member')
    } finally {
      await Promise.all([bare.close(), failing.close()])
    }
  })

  it('sends a signature from client version 8.0 on, as Telegram clients do, and none before', async () => {
    const cases: Array<[string, boolean]> = [['6.0', false], ['6.1', false], ['7.7', false], ['7.10', false], ['8.0', true], ['8.1', true], ['9.0', true], ['9.2', true], ['10.0', true]]
    for (const [version, signed] of cases) {
      const r = await post(host.url, '/launch', { user: { id: 3003, first_name: 'V' }, version })
      expect(r.status, version).toBe(200)
      const initData = hashParams(r.body.hash).tgWebAppData!
      expect(hasValidHash(initData, TEST_BOT_TOKEN), version).toBe(true)
      const { fields } = readFields(initData)
      if (signed) expect(fields.signature, version).toMatch(/^[A-Za-z0-9_-]{86}$/)
      else expect(fields, version).not.toHaveProperty('signature')
    }
  })

  it('buildLaunch signs at the given time', () => {
    const at = new Date('2026-01-01T00:00:00Z')
    const { initData } = buildLaunch({ user: { id: 5, first_name: 'E' } }, TEST_BOT_TOKEN, at)
    expect(Number(readFields(initData).fields.auth_date) * 1000).toBe(at.getTime())
    expect(hasValidHash(initData, TEST_BOT_TOKEN)).toBe(true)
  })
})

describe("telegram host: a launch with Telegram for Android's performance class", () => {
  it('builds the User-Agent Telegram for Android sends, and refuses a class off Android or not LOW/AVERAGE/HIGH', async () => {
    const { parseLaunchRequest, userAgentFor } = await import('../../stand-ins/telegram-host/index.ts')
    const req = parseLaunchRequest({ user: { id: 7, first_name: 'G' }, platform: 'android_x', performance_class: 'AVERAGE' })
    expect(userAgentFor(req)).toMatch(/^Mozilla\/5\.0 \(Linux; Android 14; .* Telegram-Android\/11\.11\.0 \(Google Pixel 7; Android 14; SDK 34; AVERAGE\)$/)
    expect(userAgentFor(parseLaunchRequest({ user: { id: 7, first_name: 'G' }, platform: 'android' }))).toBeNull()
    expect(() => parseLaunchRequest({ user: { id: 7, first_name: 'G' }, platform: 'ios', performance_class: 'LOW' })).toThrow(/android/)
    expect(() => parseLaunchRequest({ user: { id: 7, first_name: 'G' }, platform: 'android', performance_class: 'FAST' })).toThrow(/LOW, AVERAGE, HIGH/)
  })
})
