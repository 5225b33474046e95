import { describe, expect, it } from 'vitest'
import { DeferredWebApp } from '../../adapters/browser/deferred-web-app.ts'
import { launchParamsOf, parseQueryString } from '../../adapters/browser/launch-params.ts'
import { TelegramPlatform, type TelegramWebApp } from '../../adapters/browser/telegram-platform.ts'
import { signInitDataFor } from '../support/init-data.ts'

const initData = signInitDataFor({ id: 9, first_name: 'Ann', language_code: 'ru' }, 1_763_900_000, '1:T', { start_param: 'REF7' })
const launch = launchParamsOf(parseQueryString(`tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=android`))

/** Telegram's WebApp as the SDK gives it, recording each call in order; `pressBack` is the user tapping the back button. */
const recordingWebApp = () => {
  const calls: string[] = []
  const backHandlers = new Set<() => void>()
  const rec = (name: string) => () => void calls.push(name)
  const webApp: TelegramWebApp = {
    initData,
    initDataUnsafe: {},
    version: '8.0',
    platform: 'android',
    isActive: true,
    ready: rec('ready'),
    expand: rec('expand'),
    close: rec('close'),
    disableVerticalSwipes: rec('disableVerticalSwipes'),
    lockOrientation: rec('lockOrientation'),
    setBackgroundColor: (c) => void calls.push(`background ${c}`),
    setHeaderColor: (c) => void calls.push(`header ${c}`),
    openLink: (u) => void calls.push(`openLink ${u}`),
    openTelegramLink: (u) => void calls.push(`openTelegramLink ${u}`),
    shareMessage: (id, cb) => {
      calls.push(`share ${id}`)
      cb?.(true)
    },
    requestWriteAccess: (cb) => {
      calls.push('requestWriteAccess')
      cb?.(true)
    },
    onEvent: (e) => void calls.push(`on ${e}`),
    offEvent: (e) => void calls.push(`off ${e}`),
    BackButton: {
      show: rec('back.show'),
      hide: rec('back.hide'),
      onClick: (cb) => backHandlers.add(cb),
      offClick: (cb) => backHandlers.delete(cb),
    },
    HapticFeedback: {
      impactOccurred: (s) => void calls.push(`haptic ${s}`),
      notificationOccurred: (t) => void calls.push(`haptic ${t}`),
      selectionChanged: rec('haptic selection'),
    },
  }
  return { webApp, calls, pressBack: () => backHandlers.forEach((h) => h()) }
}

const page = { location: { reload: () => {}, replace: () => {} }, document: { addEventListener: () => {}, removeEventListener: () => {}, visibilityState: 'visible' as const } }

describe('the platform before and after the Telegram SDK has loaded', () => {
  it('knows the launch at once, from the URL', () => {
    const platform = new TelegramPlatform(new DeferredWebApp(launch), page)
    expect(platform.launch()).toEqual({ initData, userId: '9', languageCode: 'ru', startParam: 'REF7', version: '8.0', platform: 'android' })
  })

  it('keeps set-up, links, share and the back button, and replays them in order once the SDK is there; the back button then works', async () => {
    const deferred = new DeferredWebApp(launch)
    const platform = new TelegramPlatform(deferred, page)
    const sdk = recordingWebApp()
    let backPressed = 0
    platform.setup({ background: '#e8f4ff', header: '#e8f4ff' })
    platform.showBackButton(() => backPressed++)
    platform.openLink('https://example.com/terms')
    const shared = platform.shareMessage('msg-1')

    deferred.attach(sdk.webApp)
    expect(sdk.calls).toEqual([
      'ready',
      'expand',
      'disableVerticalSwipes',
      'lockOrientation',
      'background #e8f4ff',
      'header #e8f4ff',
      'back.show',
      'openLink https://example.com/terms',
      'on shareMessageFailed',
      'share msg-1',
    ])
    expect(await shared).toBe('sent')
    expect(sdk.calls.at(-1)).toBe('off shareMessageFailed')
    sdk.pressBack()
    expect(backPressed).toBe(1)
  })

  it('a back button shown and hidden again before the SDK loaded ends hidden, with no handler left', () => {
    const deferred = new DeferredWebApp(launch)
    const platform = new TelegramPlatform(deferred, page)
    const sdk = recordingWebApp()
    let backPressed = 0
    platform.showBackButton(() => backPressed++)
    platform.hideBackButton()
    deferred.attach(sdk.webApp)
    expect(sdk.calls).toEqual(['back.show', 'back.hide'])
    sdk.pressBack()
    expect(backPressed).toBe(0)
  })

  it('haptics before the SDK are dropped (a late vibration would be wrong), and go straight through after', () => {
    const deferred = new DeferredWebApp(launch)
    const platform = new TelegramPlatform(deferred, page)
    const sdk = recordingWebApp()
    platform.haptic('error')
    deferred.attach(sdk.webApp)
    expect(sdk.calls).toEqual([])
    platform.haptic('error')
    platform.haptic('light')
    platform.openLink('https://t.me/axiom_community')
    expect(sdk.calls).toEqual(['haptic error', 'haptic light', 'openTelegramLink https://t.me/axiom_community'])
  })

  it('one call the client refuses does not stop the replay of the others', () => {
    const deferred = new DeferredWebApp(launch)
    const platform = new TelegramPlatform(deferred, page)
    const sdk = recordingWebApp()
    const refusing: TelegramWebApp = { ...sdk.webApp, lockOrientation: () => { throw new Error('WebAppMethodUnsupported') } }
    platform.setup({ background: '#e8f4ff', header: '#e8f4ff' })
    deferred.attach(refusing)
    expect(sdk.calls).toEqual(['ready', 'expand', 'disableVerticalSwipes', 'background #e8f4ff', 'header #e8f4ff'])
  })

  it('outside Telegram (no init data) there is no launch: the app redirects to the bot', () => {
    expect(new TelegramPlatform(new DeferredWebApp(launchParamsOf({})), page).launch()).toBeNull()
  })
})
