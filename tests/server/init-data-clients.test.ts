import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { initDataHash, signFields, someSignature, toQuery, type InitDataFields } from '../support/init-data.ts'
import { jsonHeaders, PYTHON_REQUESTS_HEADERS, rawRequest, requestText, type RawReply } from './raw-http.ts'
import { startTestServer, type TestServer } from './support.ts'

/**
 * Sign-in from the initData real Telegram clients send, built by hand field by field and posted as
 * raw HTTP: clients before Bot API 8.0 send no `signature`; users may lack every field but `id`.
 */

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

/** POST /api/auth/register as python requests writes it (`requests.post(url, json=...)`). */
const register = (initData: string, refCode: string | null = null): Promise<RawReply> => {
  const body = JSON.stringify({ init_data: initData, ref_code: refCode })
  return rawRequest(t.server.port, requestText({ method: 'POST', path: '/api/auth/register', port: t.server.port, headers: [...PYTHON_REQUESTS_HEADERS, ...jsonHeaders(body)], body }))
}

const nameOf = async (telegramId: number | string) => (await t.server.admin.users()).find((u) => u.telegram_id === String(telegramId))?.name

const expectSignedIn = async (initData: string) => {
  const r = await register(initData)
  expect(r.status, r.text).toBe(200)
  expect(r.json).toEqual({ token: expect.any(String), refresh: expect.any(String) })
  expect((await t.call('GET', '/user/me', { token: r.json.token })).status).toBe(200)
  return r
}

const INVALID = { status: 401, json: { msg: 'Invalid WebApp init data' } }

interface ClientCase {
  readonly client: string
  readonly id: number
  /** The fields in the order the client writes them, `hash` left out. */
  readonly fields: (authDate: string) => InitDataFields
  readonly name: string
}

const user = (u: Record<string, unknown>) => JSON.stringify(u)

const CLIENTS: ClientCase[] = [
  {
    client: '6.0, a launch from an inline button',
    id: 7101,
    fields: (auth_date) => ({
      query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
      user: user({ id: 7101, first_name: 'Ivan', last_name: 'Petrov', username: 'ivanp', language_code: 'ru' }),
      auth_date,
    }),
    name: 'Ivan Petrov',
  },
  {
    client: '6.0, a launch from a keyboard button (no query_id)',
    id: 7102,
    fields: (auth_date) => ({ user: user({ id: 7102, first_name: 'Olga', language_code: 'en' }), auth_date }),
    name: 'Olga',
  },
  {
    client: '7.10, from the bot menu with a start parameter',
    id: 7103,
    fields: (auth_date) => ({
      query_id: 'AAGx7aUqAAAAALHtpSq8kVBf',
      user: user({ id: 7103, first_name: 'Maria', last_name: '', username: 'maria', language_code: 'es', is_premium: true, allows_write_to_pm: true, photo_url: 'https://t.me/i/userpic/320/maria.svg' }),
      chat_instance: '-4512301264529180437',
      chat_type: 'sender',
      start_param: 'REFCODE1',
      auth_date,
    }),
    name: 'Maria',
  },
  {
    client: '8.0, with a signature',
    id: 7104,
    fields: (auth_date) => ({
      query_id: 'AAHd8Z0uAAAAAN3xnS7EaT6m',
      user: user({ id: 7104, first_name: 'Léa', last_name: 'Dubois', language_code: 'fr', allows_write_to_pm: true, photo_url: 'https://t.me/i/userpic/320/lea.svg' }),
      auth_date,
      signature: someSignature(),
    }),
    name: 'Léa Dubois',
  },
  {
    client: '9.1, from a group chat, a 52-bit id, a signature',
    id: 2 ** 52 - 3,
    fields: (auth_date) => ({
      user: user({ id: 2 ** 52 - 3, first_name: '李', last_name: '雷', username: 'lilei', language_code: 'zh-hans', is_premium: true, added_to_attachment_menu: true, allows_write_to_pm: true, photo_url: 'https://t.me/i/userpic/320/x.svg' }),
      chat_instance: '8428209589180549439',
      chat_type: 'supergroup',
      chat: user({ id: -1001234567890, type: 'supergroup', title: 'AXIOM fans' }),
      start_param: 'farm_Xk3_a9Qp',
      auth_date,
      signature: someSignature(),
      can_send_after: '0',
    }),
    name: '李 雷',
  },
  {
    client: '9.0, a user with only an id and a signature',
    id: 7106,
    fields: (auth_date) => ({ user: user({ id: 7106 }), auth_date, signature: someSignature() }),
    name: 'user7106',
  },
  {
    client: '7.0, a user with only an id, no signature',
    id: 7107,
    fields: (auth_date) => ({ query_id: 'AAQ', user: user({ id: 7107 }), auth_date }),
    name: 'user7107',
  },
  {
    client: '8.0, a user with a username but no first name',
    id: 7108,
    fields: (auth_date) => ({ user: user({ id: 7108, username: 'nofirst', language_code: 'de' }), auth_date, signature: someSignature() }),
    name: 'nofirst',
  },
  {
    client: '6.9, a user with a last name only and a null photo',
    id: 7109,
    fields: (auth_date) => ({ user: user({ id: 7109, last_name: 'Smith', photo_url: null, language_code: null }), auth_date }),
    name: 'Smith',
  },
]

describe('sign-in from every Telegram client version', () => {
  for (const c of CLIENTS)
    it(`accepts ${c.client}`, async () => {
      await expectSignedIn(signFields(c.fields(String(t.clock.now)), DEV_BOT_TOKEN))
      expect(await nameOf(c.id)).toBe(c.name)
    })

  it('the same user signs in again from an older client and keeps their account', async () => {
    const id = 7201
    const fresh = { user: user({ id, first_name: 'Ann' }), auth_date: String(t.clock.now), signature: someSignature() }
    const first = await expectSignedIn(signFields(fresh, DEV_BOT_TOKEN))
    const older = { user: user({ id }), auth_date: String(t.clock.now) }
    const again = await expectSignedIn(signFields(older, DEV_BOT_TOKEN))
    const refOf = async (token: string) => (await t.call('GET', '/user/me', { token })).body.ref_code
    expect(await refOf(again.json.token)).toBe(await refOf(first.json.token))
    expect((await t.server.admin.users()).filter((u) => u.telegram_id === String(id))).toHaveLength(1)
  })

  it('refuses a signature added after hashing: the hash covers every field the client sent', async () => {
    const fields = { user: user({ id: 7202, first_name: 'Eve' }), auth_date: String(t.clock.now) }
    const signedWithout = `${toQuery(fields)}&signature=${someSignature()}&hash=${initDataHash(fields, DEV_BOT_TOKEN)}`
    expect(await register(signedWithout)).toMatchObject(INVALID)
  })

  it('refuses a removed signature, an unsafe id, a missing user and a missing auth_date', async () => {
    const now = String(t.clock.now)
    const withSig = { user: user({ id: 7203 }), auth_date: now, signature: someSignature() }
    const signed = signFields(withSig, DEV_BOT_TOKEN)
    expect(await register(signed.replace(/&signature=[^&]*/, ''))).toMatchObject(INVALID)
    const refused: InitDataFields[] = [
      { user: '{"id":9007199254740993}', auth_date: now },
      { user: user({ id: 0, first_name: 'Zero' }), auth_date: now },
      { user: user({ id: -5 }), auth_date: now },
      { user: user({ id: '7204' }), auth_date: now },
      { user: user({ id: 7204.5 }), auth_date: now },
      { user: '[7204]', auth_date: now },
      { user: 'not json', auth_date: now },
      { auth_date: now, query_id: 'AAQ' },
      { user: user({ id: 7204 }) },
      { user: user({ id: 7204 }), auth_date: `${now}.5` },
    ]
    for (const fields of refused) expect(await register(signFields(fields, DEV_BOT_TOKEN)), JSON.stringify(fields)).toMatchObject(INVALID)
  })

  it('law: any mix of optional fields signs in, with or without a signature; any changed byte is refused', async () => {
    const optionalUser = fc.record(
      {
        first_name: fc.string({ minLength: 1, maxLength: 20 }),
        last_name: fc.string({ maxLength: 20 }),
        username: fc.stringMatching(/^[A-Za-z0-9_]{5,32}$/),
        photo_url: fc.webUrl(),
        language_code: fc.constantFrom('en', 'ru', 'pt-br', 'zh-hans'),
        is_premium: fc.boolean(),
        allows_write_to_pm: fc.boolean(),
        added_to_attachment_menu: fc.boolean(),
      },
      { requiredKeys: [] },
    )
    const optionalLaunch = fc.record(
      {
        query_id: fc.stringMatching(/^[A-Za-z0-9_-]{8,24}$/),
        chat_type: fc.constantFrom('sender', 'private', 'group', 'supergroup', 'channel'),
        chat_instance: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
        start_param: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
        signature: fc.constant(null).map(() => someSignature()),
      },
      { requiredKeys: [] },
    )
    let next = 7300
    await fc.assert(
      fc.asyncProperty(optionalUser, optionalLaunch, fc.nat(), async (u, launch, pick) => {
        const id = next++
        const fields: Record<string, string> = { ...launch, user: JSON.stringify({ id, ...u }), auth_date: String(t.clock.now) }
        const good = signFields(fields, DEV_BOT_TOKEN)
        expect((await register(good)).status).toBe(200)
        // Change one field's value (keeping the hash): refused.
        const keys = Object.keys(fields)
        const key = keys[pick % keys.length]!
        const changed = { ...fields, [key]: key === 'auth_date' ? String(t.clock.now - 1) : `${fields[key]}x` }
        const forged = `${toQuery(changed)}&hash=${initDataHash(fields, DEV_BOT_TOKEN)}`
        expect(await register(forged)).toMatchObject(INVALID)
      }),
      { numRuns: 40 },
    )
  })
})
