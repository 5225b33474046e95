// @vitest-environment happy-dom
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TelegramPlatform as TelegramPlatformClass } from '../../adapters/browser/telegram-platform.ts'
import { initDataFor, launchInTelegram } from './telegram-host.ts'

const initData = initDataFor({ id: 4_503_599_627_370_495, first_name: 'Ann', language_code: 'ru' }, { start_param: 'farm_XYZ' })
const host = launchInTelegram({ initData, version: '8.0', platform: 'android' })

const navigations: string[] = []
let platform: TelegramPlatformClass

beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {})
  const telegramWebApp = await (await import('../../adapters/browser/telegram-web-app.ts')).loadTelegramWebApp()
  const { TelegramPlatform } = await import('../../adapters/browser/telegram-platform.ts')
  platform = new TelegramPlatform(telegramWebApp, {
    location: { reload: () => navigations.push('reload'), replace: (url) => navigations.push(`replace ${url}`) },
    document,
  })
})

beforeEach(() => {
  host.posted.length = 0
  navigations.length = 0
})

describe('TelegramPlatform on a Telegram 8.0 client', () => {
  it('reads the launch data from the hash Telegram opened the app with', () => {
    expect(platform.launch()).toEqual({
      initData,
      userId: '4503599627370495',
      languageCode: 'ru',
      startParam: 'farm_XYZ',
      version: '8.0',
      platform: 'android',
    })
  })

  it('sets the app up: ready, full height, no vertical swipes, locked orientation, light-blue colours', () => {
    platform.setup({ background: '#e8f4ff', header: '#e8f4fe' })
    expect(host.of('web_app_ready')).toHaveLength(1)
    expect(host.of('web_app_expand')).toHaveLength(1)
    expect(host.of('web_app_setup_swipe_behavior')).toEqual([{ allow_vertical_swipe: false }])
    expect(host.of('web_app_toggle_orientation_lock')).toEqual([{ locked: true }])
    expect(host.of('web_app_set_background_color')).toEqual([{ color: '#e8f4ff' }])
    expect(host.of('web_app_set_header_color')).toEqual([{ color: '#e8f4fe' }])
  })

  it('survives a colour the client refuses', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => platform.setup({ background: 'light blue', header: 'nope' })).not.toThrow()
    quiet.mockRestore()
    expect(host.of('web_app_ready')).toHaveLength(1)
  })

  it('shows the back button and calls only the latest handler when it is pressed', () => {
    const presses: string[] = []
    platform.showBackButton(() => presses.push('first'))
    platform.showBackButton(() => presses.push('second'))
    expect(host.of('web_app_setup_back_button')).toContainEqual({ is_visible: true })
    host.send('back_button_pressed')
    expect(presses).toEqual(['second'])

    platform.hideBackButton()
    expect(host.of('web_app_setup_back_button').at(-1)).toEqual({ is_visible: false })
    host.send('back_button_pressed')
    expect(presses).toEqual(['second'])
  })

  it('maps each haptic kind to the feedback Telegram plays', () => {
    for (const kind of ['error', 'success', 'warning', 'light', 'medium', 'selection'] as const) platform.haptic(kind)
    expect(host.of('web_app_trigger_haptic_feedback')).toEqual([
      { type: 'notification', notification_type: 'error' },
      { type: 'notification', notification_type: 'success' },
      { type: 'notification', notification_type: 'warning' },
      { type: 'impact', impact_style: 'light' },
      { type: 'impact', impact_style: 'medium' },
      { type: 'selection_change' },
    ])
  })

  it('opens t.me links inside Telegram, other web links outside, and nothing else', () => {
    platform.openLink('https://t.me/axiom_community')
    platform.openPlatformLink('https://t.me/axiom_bot?start=ref_1')
    platform.openLink('https://docs.example.com/axiom')
    platform.openLink('javascript:alert(1)')
    platform.openLink('not a url')
    expect(host.of('web_app_open_tg_link')).toEqual([
      { path_full: '/axiom_community' },
      { path_full: '/axiom_bot?start=ref_1' },
    ])
    expect(host.of('web_app_open_link')).toEqual([{ url: 'https://docs.example.com/axiom' }])
  })

  it('shares a prepared message and says how it ended: sent, declined by the user, or failed', async () => {
    const sent = platform.shareMessage('msg-1')
    expect(host.of('web_app_send_prepared_message')).toEqual([{ id: 'msg-1' }])
    host.send('prepared_message_sent')
    expect(await sent).toBe('sent')

    const declined = platform.shareMessage('msg-2')
    host.send('prepared_message_failed', { error: 'USER_DECLINED' })
    expect(await declined).toBe('declined')

    const failed = platform.shareMessage('msg-3')
    host.send('prepared_message_failed', { error: 'MESSAGE_EXPIRED' })
    expect(await failed).toBe('failed')
  })

  it('asks Telegram to let the bot write to the user, and says whether they allowed it', async () => {
    const allowed = platform.requestWriteAccess()
    expect(host.of('web_app_request_write_access')).toHaveLength(1)
    host.send('write_access_requested', { status: 'allowed' })
    expect(await allowed).toBe(true)

    const declined = platform.requestWriteAccess()
    host.send('write_access_requested', { status: 'cancelled' })
    expect(await declined).toBe(false)
  })

  it("reads whether the launch says the bot may write to the user (initData's allows_write_to_pm)", async () => {
    const { initDataUnsafeOf } = await import('../../adapters/browser/launch-params.ts')
    expect(initDataUnsafeOf(initDataFor({ id: 5, first_name: 'Bo', allows_write_to_pm: true })).user).toEqual({ id: 5, allows_write_to_pm: true })
    expect(initDataUnsafeOf(initDataFor({ id: 6, first_name: 'Cy' })).user).toEqual({ id: 6 })
  })

  it('answers failed when a share is already open, instead of throwing', async () => {
    vi.spyOn(console, 'error').mockImplementationOnce(() => {})
    const first = platform.shareMessage('msg-3')
    expect(await platform.shareMessage('msg-4')).toBe('failed')
    host.send('prepared_message_sent')
    expect(await first).toBe('sent')
  })

  it('closes the app, reloads and leaves for another URL', () => {
    platform.close()
    platform.reload()
    platform.redirect('https://t.me/axiom_bot')
    expect(host.of('web_app_close')).toHaveLength(1)
    expect(navigations).toEqual(['reload', 'replace https://t.me/axiom_bot'])
  })

  it("reports visibility from Telegram's events and the document's, once per change, until unsubscribed", () => {
    const seen: boolean[] = []
    const unsubscribe = platform.onVisibilityChange((visible) => seen.push(visible))
    host.send('visibility_changed', { is_visible: false })
    host.send('visibility_changed', { is_visible: true })

    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
    host.send('visibility_changed', { is_visible: false })
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
    expect(seen).toEqual([false, true, false, true])

    unsubscribe()
    host.send('visibility_changed', { is_visible: false })
    document.dispatchEvent(new Event('visibilitychange'))
    expect(seen).toEqual([false, true, false, true])
  })

  it("reaches fullscreen through telegram-web-app.js's receive path, and answers 9.0 storage as unsupported on 8.0", async () => {
    const features = await platform.features()
    expect(await platform.features()).toBe(features)
    const entered = features.fullscreen.request()
    expect(host.of('web_app_request_fullscreen')).toHaveLength(1)
    host.send('fullscreen_changed', { is_fullscreen: true })
    expect(await entered).toEqual({ kind: 'fullscreen' })
    host.send('safe_area_changed', { top: 47, bottom: 34, left: 0, right: 0 })
    expect(features.insets.current().safeArea).toEqual({ top: 47, bottom: 34, left: 0, right: 0 })

    expect(await features.deviceStorage.set('k', 'v')).toEqual({ kind: 'unsupported' })
    expect(host.of('web_app_device_storage_save_key')).toEqual([])
  })
})
