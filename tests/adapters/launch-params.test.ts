// @vitest-environment happy-dom
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  launchParamsOf,
  parseHashParams,
  readInitParams,
  TELEGRAM_INIT_PARAMS_KEY,
  type ParamsStorage,
} from '../../adapters/browser/launch-params.ts'
import { signFields, signInitDataFor, someSignature } from '../support/init-data.ts'

const BOT_TOKEN = '123456:TEST-launch-params'
const theme = { bg_color: '#ffffff', text_color: '#000000', button_color: '#2481cc' }

/** A launch hash as Telegram's clients write it: every value URL-encoded, initData included. */
const telegramHash = (p: { initData?: string; version?: string; platform?: string; start?: string }) =>
  '#' +
  [
    ...(p.initData === undefined ? [] : [`tgWebAppData=${encodeURIComponent(p.initData)}`]),
    ...(p.version === undefined ? [] : [`tgWebAppVersion=${p.version}`]),
    ...(p.platform === undefined ? [] : [`tgWebAppPlatform=${p.platform}`]),
    `tgWebAppThemeParams=${encodeURIComponent(JSON.stringify(theme))}`,
    ...(p.start === undefined ? [] : [`tgWebAppStartParam=${encodeURIComponent(p.start)}`]),
  ].join('&')

/** sessionStorage as a plain map. */
const memoryStorage = (initial: Record<string, string> = {}) => {
  const items = new Map(Object.entries(initial))
  const storage: ParamsStorage = {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
  }
  return { storage, items }
}

const ann = { id: 4_503_599_627, first_name: 'Ann', last_name: 'Lee', username: 'ann', language_code: 'ru', allows_write_to_pm: true }

describe('launch parameters read from the URL, without the SDK', () => {
  it('a 7.10 iOS client: the signed initData exactly as sent, the user, language, start parameter, version and platform', () => {
    const initData = signInitDataFor(ann, 1_763_900_000, BOT_TOKEN, { start_param: 'REF42', chat_type: 'private' })
    const { storage } = memoryStorage()
    const launch = launchParamsOf(readInitParams(telegramHash({ initData, version: '7.10', platform: 'ios', start: 'REF42' }), storage))
    expect(launch.initData).toBe(initData)
    expect(launch.initDataUnsafe).toEqual({ user: { id: ann.id, language_code: 'ru', allows_write_to_pm: true }, start_param: 'REF42' })
    expect(launch.version).toBe('7.10')
    expect(launch.platform).toBe('ios')
    expect(launch.startParam).toBe('REF42')
  })

  it('a 6.0 client: no signature in initData, and no version in the hash means 6.0', () => {
    const initData = signFields({ query_id: 'q1', user: JSON.stringify({ id: 77, first_name: 'Old' }), auth_date: '1700000000' }, BOT_TOKEN)
    const launch = launchParamsOf(readInitParams(telegramHash({ initData, platform: 'android' }), null))
    expect(launch.initData).toBe(initData)
    expect(new URLSearchParams(launch.initData).has('signature')).toBe(false)
    expect(launch.initDataUnsafe).toEqual({ user: { id: 77 } })
    expect(launch.version).toBe('6.0')
    expect(launch.platform).toBe('android')
    expect(launch.startParam).toBeNull()
  })

  it('a start parameter only in the hash (a web_app button), and a user name with spaces, + and & in it', () => {
    const user = { id: 5, first_name: 'A + B & C', language_code: 'en' }
    const initData = signFields({ user: JSON.stringify(user), auth_date: '1700000000', signature: someSignature() }, BOT_TOKEN)
    const launch = launchParamsOf(readInitParams(telegramHash({ initData, version: '8.0', platform: 'tdesktop', start: 'farm_K7Q2M9XW4P' }), null))
    expect(launch.initData).toBe(initData)
    expect(launch.initDataUnsafe.start_param).toBeUndefined()
    expect(launch.startParam).toBe('farm_K7Q2M9XW4P')
  })

  it('outside Telegram: no hash, an unrelated hash, or a garbled one give no init data (the app redirects to the bot)', () => {
    for (const hash of ['', '#', '#/bonds', '#section-2', '#tgWebAppVersion=7.0', '#%E0%A4%A&=&&']) {
      const launch = launchParamsOf(readInitParams(hash, null))
      expect(launch.initData, hash).toBe('')
      expect(launch.initDataUnsafe, hash).toEqual({})
    }
  })

  it('garbled init data is passed on (the backend refuses it), never thrown on', () => {
    const decodable = launchParamsOf(readInitParams('#tgWebAppData=user%3D%7Bnot-json%7D%26hash%3Dx&tgWebAppVersion=7.0', null))
    expect(decodable.initData).toBe('user={not-json}&hash=x')
    expect(decodable.initDataUnsafe).toEqual({})
    // A value with a broken escape does not decode: it is kept as it came, as telegram-web-app.js keeps it.
    const broken = launchParamsOf(readInitParams('#tgWebAppData=user%3D%7B%7D%26hash%3D%E0%A4&tgWebAppVersion=7.0', null))
    expect(broken.initData).toBe('user%3D%7B%7D%26hash%3D%E0%A4')
    expect(broken.initDataUnsafe).toEqual({})
  })

  it('a reload that lost the hash takes the parameters Telegram kept in sessionStorage for this tab', () => {
    const initData = signInitDataFor(ann, 1_763_900_000, BOT_TOKEN)
    const { storage, items } = memoryStorage()
    readInitParams(telegramHash({ initData, version: '8.0', platform: 'ios' }), storage)
    expect(JSON.parse(items.get(TELEGRAM_INIT_PARAMS_KEY)!)).toMatchObject({ tgWebAppData: initData, tgWebAppVersion: '8.0' })

    const reloaded = launchParamsOf(readInitParams('', storage))
    expect(reloaded.initData).toBe(initData)
    expect(reloaded.version).toBe('8.0')
    expect(reloaded.initDataUnsafe.user?.id).toBe(ann.id)
  })

  it('writes them back in the task it is given, and nothing before', () => {
    const initData = signInitDataFor(ann, 1_763_900_000, BOT_TOKEN)
    const { storage, items } = memoryStorage()
    const tasks: (() => void)[] = []
    const launch = launchParamsOf(readInitParams(telegramHash({ initData, version: '8.0', platform: 'ios' }), storage, (keep) => tasks.push(keep)))
    expect(launch.initData).toBe(initData)
    expect(items.has(TELEGRAM_INIT_PARAMS_KEY)).toBe(false)
    expect(tasks).toHaveLength(1)
    tasks[0]!()
    expect(launchParamsOf(readInitParams('', storage)).initData).toBe(initData)
  })

  it('the hash wins over what is stored, and what the hash lacks comes from storage', () => {
    const { storage } = memoryStorage({
      [TELEGRAM_INIT_PARAMS_KEY]: JSON.stringify({ tgWebAppData: 'user=%7B%22id%22%3A1%7D', tgWebAppVersion: '6.1', tgWebAppPlatform: 'ios' }),
    })
    const initData = signInitDataFor({ id: 2, first_name: 'New' }, 1_763_900_000, BOT_TOKEN)
    const launch = launchParamsOf(readInitParams(`#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0`, storage))
    expect(launch.initDataUnsafe.user?.id).toBe(2)
    expect(launch.version).toBe('8.0')
    expect(launch.platform).toBe('ios')
  })

  it('storage that holds junk or refuses access is skipped', () => {
    const junk = memoryStorage({ [TELEGRAM_INIT_PARAMS_KEY]: '{not json' })
    expect(launchParamsOf(readInitParams('', junk.storage)).initData).toBe('')
    const array = memoryStorage({ [TELEGRAM_INIT_PARAMS_KEY]: '["tgWebAppData"]' })
    expect(launchParamsOf(readInitParams('', array.storage)).initData).toBe('')
    const refusing: ParamsStorage = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
    }
    const initData = signInitDataFor(ann, 1_763_900_000, BOT_TOKEN)
    expect(launchParamsOf(readInitParams(telegramHash({ initData, version: '7.0' }), refusing)).initData).toBe(initData)
  })
})

describe('the hash parser agrees with telegram-web-app.js', () => {
  let sdkParse: (hash: string) => Record<string, string | null>
  beforeAll(async () => {
    await import('@twa-dev/sdk')
    sdkParse = (window as unknown as { Telegram: { Utils: { urlParseHashParams(h: string): Record<string, string | null> } } }).Telegram.Utils
      .urlParseHashParams
  })

  it('on any hash made of the characters a URL fragment can carry', () => {
    const char = fc.constantFrom(...'ab=&?#%+ 2E0A4{}"_-.~'.split(''))
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }).map((cs) => cs.join('')), (hash) => {
        expect(parseHashParams(hash)).toEqual({ ...sdkParse(hash) })
      }),
      { numRuns: 500 },
    )
  })
})
