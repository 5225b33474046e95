// @vitest-environment happy-dom
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TelegramPlatform as TelegramPlatformClass, TelegramWebApp } from '../../adapters/browser/telegram-platform.ts'
import { launchInTelegram } from './telegram-host.ts'

// A 7.0 client, and a page opened without init data (outside Telegram, or in a plain browser).
const host = launchInTelegram({ version: '7.0' })
let platform: TelegramPlatformClass
let TelegramPlatform: typeof TelegramPlatformClass

beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {})
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const telegramWebApp = await (await import('../../adapters/browser/telegram-web-app.ts')).loadTelegramWebApp()
  ;({ TelegramPlatform } = await import('../../adapters/browser/telegram-platform.ts'))
  platform = new TelegramPlatform(telegramWebApp)
})

beforeEach(() => {
  host.posted.length = 0
})

describe('TelegramPlatform on an older client', () => {
  it('has no launch data when Telegram passed no init data', () => {
    expect(platform.launch()).toBeNull()
  })

  it('skips the start-up calls the client does not know', () => {
    platform.setup({ background: '#e8f4ff', header: '#e8f4ff' })
    expect(host.of('web_app_ready')).toHaveLength(1)
    expect(host.of('web_app_expand')).toHaveLength(1)
    expect(host.of('web_app_setup_swipe_behavior')).toEqual([])
    expect(host.of('web_app_toggle_orientation_lock')).toEqual([])
    expect(host.of('web_app_set_background_color')).toEqual([{ color: '#e8f4ff' }])
  })

  it('does not offer native sharing before 8.0', async () => {
    expect(await platform.shareMessage('msg-1')).toBe('failed')
    expect(host.of('web_app_send_prepared_message')).toEqual([])
  })

  it('offers none of the 7.2–9.x features on 7.0, and posts nothing for them', async () => {
    const features = await platform.features()
    expect(await features.fullscreen.request()).toEqual({ kind: 'unsupported' })
    expect(await features.homeScreen.check()).toBe('unsupported')
    expect(await features.biometry.authenticate('why')).toEqual({ kind: 'unsupported' })
    expect(await features.secureStorage.get('k')).toEqual({ kind: 'unsupported' })
    expect(host.posted).toEqual([])
  })

  it('does not ask to let the bot write before 6.9', async () => {
    const older = new TelegramPlatform(fakeWebApp('6.8').webApp)
    expect(await older.requestWriteAccess()).toBe(false)
  })
})

/** A 6.0 client through a fake binding: the SDK itself would fall back to window.open there. */
const fakeWebApp = (version: string) => {
  const calls: string[] = []
  const record = (name: string) => (...args: unknown[]) => void calls.push([name, ...args].join(' '))
  const webApp: TelegramWebApp = {
    initData: '',
    initDataUnsafe: {},
    version,
    platform: 'tdesktop',
    ready: record('ready'),
    expand: record('expand'),
    close: record('close'),
    disableVerticalSwipes: record('disableVerticalSwipes'),
    lockOrientation: record('lockOrientation'),
    setBackgroundColor: record('setBackgroundColor'),
    setHeaderColor: record('setHeaderColor'),
    openLink: record('openLink'),
    openTelegramLink: record('openTelegramLink'),
    shareMessage: record('shareMessage'),
    requestWriteAccess: record('requestWriteAccess'),
    onEvent: record('onEvent'),
    offEvent: record('offEvent'),
    BackButton: { show: record('show'), hide: record('hide'), onClick: record('onClick'), offClick: record('offClick') },
    HapticFeedback: {
      impactOccurred: record('impactOccurred'),
      notificationOccurred: record('notificationOccurred'),
      selectionChanged: record('selectionChanged'),
    },
  }
  return { webApp, calls }
}

describe('TelegramPlatform launch data without a user', () => {
  it('has no user id, English, and no start parameter', () => {
    const { webApp } = fakeWebApp('6.0')
    const launch = new TelegramPlatform({ ...webApp, initData: 'auth_date=1700000000&hash=c0ffee' }).launch()
    expect(launch).toEqual({
      initData: 'auth_date=1700000000&hash=c0ffee',
      userId: null,
      languageCode: 'en',
      startParam: null,
      version: '6.0',
      platform: 'tdesktop',
    })
  })
})

describe('TelegramPlatform start parameter from the page query', () => {
  const page = (search: string) => ({ location: { reload: () => {}, replace: () => {}, search }, document: globalThis.document })

  it('reads ?tgWebAppStartParam= when the init data has no start_param (a bot web_app button carrying a code)', () => {
    const { webApp } = fakeWebApp('8.0')
    const launch = new TelegramPlatform({ ...webApp, initData: 'auth_date=1700000000&hash=c0ffee' }, page('?tgWebAppStartParam=Xk3_a9Qp')).launch()
    expect(launch?.startParam).toBe('Xk3_a9Qp')
  })

  it('prefers the signed init data’s start_param', () => {
    const { webApp } = fakeWebApp('8.0')
    const signed = { ...webApp, initData: 'auth_date=1700000000&start_param=farm_ABCD1234&hash=c0ffee', initDataUnsafe: { start_param: 'farm_ABCD1234' } }
    expect(new TelegramPlatform(signed, page('?tgWebAppStartParam=OTHER')).launch()?.startParam).toBe('farm_ABCD1234')
    expect(new TelegramPlatform({ ...webApp, initData: 'auth_date=1&hash=c0ffee' }, page('?other=1')).launch()?.startParam).toBeNull()
  })
})

describe('TelegramPlatform on a 6.0 client', () => {
  it('opens t.me links as external links and plays no haptics', () => {
    const { webApp, calls } = fakeWebApp('6.0')
    const old = new TelegramPlatform(webApp)
    old.openLink('https://t.me/axiom_community')
    old.haptic('error')
    expect(calls).toEqual(['openLink https://t.me/axiom_community'])
  })

  it('keeps working when the SDK throws', async () => {
    const { webApp } = fakeWebApp('8.0')
    const throwing: TelegramWebApp = {
      ...webApp,
      ready: () => {
        throw new Error('WebAppMethodUnsupported')
      },
      shareMessage: () => {
        throw new Error('WebAppShareMessageOpened')
      },
    }
    const p = new TelegramPlatform(throwing)
    expect(() => p.setup({ background: '#e8f4ff', header: '#e8f4ff' })).not.toThrow()
    expect(await p.shareMessage('x')).toBe('failed')
  })
})
