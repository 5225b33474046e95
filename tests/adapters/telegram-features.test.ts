import { describe, expect, it } from 'vitest'
import { windowBridge, type BridgeWindow } from '../../adapters/browser/telegram-bridge.ts'
import { performanceClassOf, TelegramFeatures } from '../../adapters/browser/telegram-features.ts'

/**
 * Telegram's side written by hand from its protocol (core.telegram.org/api/web-events and the method
 * and event tables of docs.telegram-mini-apps.com/platform): what the app posts is recorded as the
 * client receives it, and the answers are the event JSON those pages give.
 */
interface Posted {
  readonly eventType: string
  readonly eventData: unknown
}

/** A mobile client: methods through window.TelegramWebviewProxy, events through Telegram.WebView (telegram-web-app.js's receive path). */
const mobileClient = () => {
  const posted: Posted[] = []
  const callbacks = new Map<string, Array<(type: string, data: unknown) => void>>()
  const window: BridgeWindow = {
    TelegramWebviewProxy: { postEvent: (eventType, eventData) => void posted.push({ eventType, eventData: JSON.parse(eventData) }) },
    Telegram: {
      WebView: {
        onEvent: (type, cb) => void callbacks.set(type, [...(callbacks.get(type) ?? []), cb]),
        offEvent: (type, cb) => void callbacks.set(type, (callbacks.get(type) ?? []).filter((c) => c !== cb)),
      },
    },
  }
  return {
    window,
    posted,
    /** As Telegram calls window.Telegram.WebView.receiveEvent(eventType, eventData). */
    receive: (json: string) => {
      const { eventType, eventData } = JSON.parse(json) as { eventType: string; eventData?: unknown }
      for (const cb of callbacks.get(eventType) ?? []) cb(eventType, eventData)
    },
  }
}

/** Telegram Web: the app in an iframe posts JSON strings to its parent and gets `message` events back. */
const webClient = () => {
  const posted: Posted[] = []
  const targets: string[] = []
  const messageListeners: Array<(e: { source?: unknown; data?: unknown }) => void> = []
  const parent = {
    postMessage: (message: string, target: string) => {
      posted.push(JSON.parse(message) as Posted)
      targets.push(target)
    },
  }
  const window: BridgeWindow = { parent, addEventListener: (_type, l) => void messageListeners.push(l) }
  return {
    window,
    posted,
    targets,
    receive: (json: string, source: unknown = parent) => {
      for (const l of messageListeners) l({ source, data: json })
    },
  }
}

const featuresOn = (window: BridgeWindow, version: string, extra: Partial<ConstructorParameters<typeof TelegramFeatures>[0]> = {}) =>
  new TelegramFeatures({ version, bridge: windowBridge(window), answerTimeoutMs: 30, promptTimeoutMs: 60, ...extra })

const reqIdOf = (p: Posted | undefined): string => (p?.eventData as { req_id: string }).req_id
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('SecureStorage and DeviceStorage (Bot API 9.0) on a 9.1 client', () => {
  it('saves, reads, removes and clears secure keys with the documented methods and answers', async () => {
    const client = mobileClient()
    const store = featuresOn(client.window, '9.1').secureStorage
    expect(store.supported).toBe(true)

    const saved = store.set('refresh', 'tok-1')
    expect(client.posted).toEqual([{ eventType: 'web_app_secure_storage_save_key', eventData: { req_id: expect.any(String), key: 'refresh', value: 'tok-1' } }])
    client.receive(`{"eventType":"secure_storage_key_saved","eventData":{"req_id":"${reqIdOf(client.posted[0])}"}}`)
    expect(await saved).toEqual({ kind: 'ok', value: undefined })

    const read = store.get('refresh')
    const get = client.posted[1]
    expect(get).toEqual({ eventType: 'web_app_secure_storage_get_key', eventData: { req_id: expect.any(String), key: 'refresh' } })
    expect(reqIdOf(get)).not.toBe(reqIdOf(client.posted[0]))
    client.receive(`{"eventType":"secure_storage_key_received","eventData":{"req_id":"${reqIdOf(get)}","value":"tok-1","can_restore":false}}`)
    expect(await read).toEqual({ kind: 'ok', value: 'tok-1' })

    const removed = store.remove('refresh')
    expect(client.posted[2]).toEqual({ eventType: 'web_app_secure_storage_save_key', eventData: { req_id: expect.any(String), key: 'refresh', value: null } })
    client.receive(`{"eventType":"secure_storage_key_saved","eventData":{"req_id":"${reqIdOf(client.posted[2])}"}}`)
    expect(await removed).toEqual({ kind: 'ok', value: undefined })

    const missing = store.get('refresh')
    client.receive(`{"eventType":"secure_storage_key_received","eventData":{"req_id":"${reqIdOf(client.posted[3])}","value":null}}`)
    expect(await missing).toEqual({ kind: 'ok', value: null })

    const cleared = store.clear()
    expect(client.posted[4]).toEqual({ eventType: 'web_app_secure_storage_clear', eventData: { req_id: expect.any(String) } })
    client.receive(`{"eventType":"secure_storage_cleared","eventData":{"req_id":"${reqIdOf(client.posted[4])}"}}`)
    expect(await cleared).toEqual({ kind: 'ok', value: undefined })
  })

  it('matches each answer to its request by req_id, whatever the order', async () => {
    const client = mobileClient()
    const store = featuresOn(client.window, '9.0').deviceStorage
    const a = store.get('a')
    const b = store.get('b')
    const [ra, rb] = client.posted.map(reqIdOf)
    expect(client.posted.map((p) => p.eventType)).toEqual(['web_app_device_storage_get_key', 'web_app_device_storage_get_key'])
    client.receive(`{"eventType":"device_storage_key_received","eventData":{"req_id":"someone-else","value":"x"}}`)
    client.receive(`{"eventType":"device_storage_key_received","eventData":{"req_id":"${rb}","value":"B"}}`)
    client.receive(`{"eventType":"device_storage_key_received","eventData":{"req_id":"${ra}","value":"A"}}`)
    expect(await a).toEqual({ kind: 'ok', value: 'A' })
    expect(await b).toEqual({ kind: 'ok', value: 'B' })
  })

  it('speaks DeviceStorage with its own method and event names', async () => {
    const client = webClient()
    const store = featuresOn(client.window, '9.1').deviceStorage
    const saved = store.set('theme', 'dark')
    expect(client.posted).toEqual([{ eventType: 'web_app_device_storage_save_key', eventData: { req_id: expect.any(String), key: 'theme', value: 'dark' } }])
    expect(client.targets).toEqual(['*'])
    // A secure-storage answer with the same req_id is not DeviceStorage's.
    client.receive(`{"eventType":"secure_storage_key_saved","eventData":{"req_id":"${reqIdOf(client.posted[0])}"}}`)
    client.receive(`{"eventType":"device_storage_key_saved","eventData":{"req_id":"${reqIdOf(client.posted[0])}"}}`)
    expect(await saved).toEqual({ kind: 'ok', value: undefined })

    const cleared = store.clear()
    expect(client.posted[1]).toEqual({ eventType: 'web_app_device_storage_clear', eventData: { req_id: expect.any(String) } })
    client.receive(`{"eventType":"device_storage_cleared","eventData":{"req_id":"${reqIdOf(client.posted[1])}"}}`)
    expect(await cleared).toEqual({ kind: 'ok', value: undefined })

    // Only the parent frame speaks for Telegram: another frame's message is not an answer.
    const read = store.get('theme')
    const id = reqIdOf(client.posted[2])
    client.receive(`{"eventType":"device_storage_key_received","eventData":{"req_id":"${id}","value":"forged"}}`, {})
    client.receive(`{"eventType":"device_storage_key_received","eventData":{"req_id":"${id}","value":"dark"}}`)
    expect(await read).toEqual({ kind: 'ok', value: 'dark' })
  })

  it("reports the client's failure with its error, and a silent client as a timeout", async () => {
    const client = mobileClient()
    const features = featuresOn(client.window, '9.1')
    const failed = features.secureStorage.set('k', 'v')
    client.receive(`{"eventType":"secure_storage_failed","eventData":{"req_id":"${reqIdOf(client.posted[0])}","error":"STORAGE_KEY_CLEARED"}}`)
    expect(await failed).toEqual({ kind: 'failed', error: 'STORAGE_KEY_CLEARED' })

    const noCode = features.deviceStorage.get('k')
    client.receive(`{"eventType":"device_storage_failed","eventData":{"req_id":"${reqIdOf(client.posted[1])}"}}`)
    expect(await noCode).toEqual({ kind: 'failed', error: 'UNKNOWN_ERROR' })

    expect(await features.deviceStorage.get('never-answered')).toEqual({ kind: 'timeout' })
  })

  it('is unsupported before 9.0, and outside Telegram, with nothing posted', async () => {
    const client = mobileClient()
    const older = featuresOn(client.window, '8.0')
    expect(older.secureStorage.supported).toBe(false)
    expect(await older.secureStorage.set('k', 'v')).toEqual({ kind: 'unsupported' })
    expect(await older.deviceStorage.get('k')).toEqual({ kind: 'unsupported' })
    expect(client.posted).toEqual([])

    const nowhere = featuresOn({}, '9.1')
    expect(await nowhere.deviceStorage.set('k', 'v')).toEqual({ kind: 'unsupported' })
  })
})

describe('fullscreen and insets (Bot API 8.0)', () => {
  it('asks for the insets once, then follows their late changes', async () => {
    const client = mobileClient()
    const insets = featuresOn(client.window, '8.0').insets
    expect(insets.supported).toBe(true)
    const seen: unknown[] = []
    insets.onChange((i) => seen.push(i))
    expect(client.posted).toEqual([
      { eventType: 'web_app_request_safe_area', eventData: '' },
      { eventType: 'web_app_request_content_safe_area', eventData: '' },
    ])
    client.receive('{"eventType":"safe_area_changed","eventData":{"top":47,"bottom":34,"left":0,"right":0}}')
    client.receive('{"eventType":"content_safe_area_changed","eventData":{"top":46,"bottom":0,"left":0,"right":0}}')
    expect(insets.current()).toEqual({ safeArea: { top: 47, bottom: 34, left: 0, right: 0 }, contentSafeArea: { top: 46, bottom: 0, left: 0, right: 0 } })
    expect(seen).toHaveLength(2)
    insets.current()
    expect(client.posted).toHaveLength(2)
  })

  it('enters fullscreen, tells the change, and leaves it', async () => {
    const client = webClient()
    const fullscreen = featuresOn(client.window, '8.0').fullscreen
    const changes: boolean[] = []
    fullscreen.onChange((f) => changes.push(f))
    const entered = fullscreen.request()
    expect(client.posted.map((p) => p.eventType)).toEqual(['web_app_request_safe_area', 'web_app_request_content_safe_area', 'web_app_request_fullscreen'])
    client.receive('{"eventType":"fullscreen_changed","eventData":{"is_fullscreen":true}}')
    expect(await entered).toEqual({ kind: 'fullscreen' })
    expect(fullscreen.isFullscreen()).toBe(true)

    fullscreen.exit()
    expect(client.posted.at(-1)).toEqual({ eventType: 'web_app_exit_fullscreen', eventData: '' })
    client.receive('{"eventType":"fullscreen_changed","eventData":{"is_fullscreen":false}}')
    expect(fullscreen.isFullscreen()).toBe(false)
    expect(changes).toEqual([true, false])
  })

  it("reports fullscreen_failed with the client's error, and reads ALREADY_FULLSCREEN as fullscreen", async () => {
    const client = mobileClient()
    const fullscreen = featuresOn(client.window, '9.1').fullscreen
    const failures: string[] = []
    fullscreen.onFailure((e) => failures.push(e))
    const refused = fullscreen.request()
    client.receive('{"eventType":"fullscreen_failed","eventData":{"error":"UNSUPPORTED"}}')
    expect(await refused).toEqual({ kind: 'failed', error: 'UNSUPPORTED' })
    expect(fullscreen.isFullscreen()).toBe(false)

    const already = fullscreen.request()
    client.receive('{"eventType":"fullscreen_failed","eventData":{"error":"ALREADY_FULLSCREEN"}}')
    expect(await already).toEqual({ kind: 'fullscreen' })
    expect(fullscreen.isFullscreen()).toBe(true)
    expect(failures).toEqual(['UNSUPPORTED', 'ALREADY_FULLSCREEN'])
  })
})

describe('the home screen (Bot API 8.0)', () => {
  it('checks the status and adds the app, as the client answers', async () => {
    const client = mobileClient()
    const home = featuresOn(client.window, '8.0', { promptTimeoutMs: 30 }).homeScreen
    const status = home.check()
    expect(client.posted).toEqual([{ eventType: 'web_app_check_home_screen', eventData: '' }])
    client.receive('{"eventType":"home_screen_checked","eventData":{"status":"missed"}}')
    expect(await status).toBe('missed')

    const added = home.add()
    expect(client.posted[1]).toEqual({ eventType: 'web_app_add_to_home_screen', eventData: '' })
    client.receive('{"eventType":"home_screen_added"}')
    expect(await added).toEqual({ kind: 'added' })

    const declined = home.add()
    client.receive('{"eventType":"home_screen_failed"}')
    expect(await declined).toEqual({ kind: 'declined' })

    // Telegram's docs: a client that cannot tell may send nothing.
    expect(await home.add()).toEqual({ kind: 'unknown' })
    const odd = home.check()
    client.receive('{"eventType":"home_screen_checked","eventData":{}}')
    expect(await odd).toBe('unknown')
  })
})

describe('biometrics (Bot API 7.2)', () => {
  const info = (o: Record<string, unknown>) => JSON.stringify({ eventType: 'biometry_info_received', eventData: o })
  const ready = { available: true, type: 'face', access_requested: true, access_granted: true, device_id: 'dev-1', token_saved: true }

  it('reads the settings the client reports', async () => {
    const client = mobileClient()
    const biometry = featuresOn(client.window, '7.2').biometry
    const read = biometry.info()
    expect(client.posted).toEqual([{ eventType: 'web_app_biometry_get_info', eventData: '' }])
    client.receive(info(ready))
    expect(await read).toEqual({
      kind: 'info',
      info: { available: true, type: 'face', accessRequested: true, accessGranted: true, deviceId: 'dev-1', tokenSaved: true },
    })
  })

  it('asks for access with the reason, and reads the answer from biometry_info_received', async () => {
    const client = mobileClient()
    const biometry = featuresOn(client.window, '8.0').biometry
    const granted = biometry.requestAccess('Confirm sales with your face')
    client.receive(info({ available: true, type: 'finger', access_requested: false, access_granted: false, device_id: 'd' }))
    await tick()
    expect(client.posted[1]).toEqual({ eventType: 'web_app_biometry_request_access', eventData: { reason: 'Confirm sales with your face' } })
    client.receive(info({ available: true, type: 'finger', access_requested: true, access_granted: true, device_id: 'd' }))
    expect(await granted).toEqual({ kind: 'granted' })

    const denied = biometry.requestAccess('again')
    client.receive(info({ available: true, type: 'finger', access_requested: false, access_granted: false, device_id: 'd' }))
    await tick()
    client.receive(info({ available: true, type: 'finger', access_requested: true, access_granted: false, device_id: 'd' }))
    expect(await denied).toEqual({ kind: 'denied' })

    const none = biometry.requestAccess('no sensor')
    client.receive(info({ available: false, device_id: 'd' }))
    expect(await none).toEqual({ kind: 'unavailable' })
    expect(client.posted.filter((p) => p.eventType === 'web_app_biometry_request_access')).toHaveLength(2)
  })

  it('authenticates with the reason: ok with the token, failed, or no access asked yet', async () => {
    const client = mobileClient()
    const biometry = featuresOn(client.window, '9.1').biometry
    const ok = biometry.authenticate('Sign the withdrawal')
    client.receive(info(ready))
    await tick()
    expect(client.posted.map((p) => p.eventType)).toEqual(['web_app_biometry_get_info', 'web_app_biometry_request_auth'])
    expect(client.posted[1]!.eventData).toEqual({ reason: 'Sign the withdrawal' })
    client.receive('{"eventType":"biometry_auth_requested","eventData":{"status":"authorized","token":"secret-1"}}')
    expect(await ok).toEqual({ kind: 'ok', token: 'secret-1' })

    const failed = biometry.authenticate('again')
    client.receive(info(ready))
    await tick()
    client.receive('{"eventType":"biometry_auth_requested","eventData":{"status":"failed"}}')
    expect(await failed).toEqual({ kind: 'failed' })

    const noAccess = biometry.authenticate('x')
    client.receive(info({ ...ready, access_requested: false, access_granted: false }))
    expect(await noAccess).toEqual({ kind: 'no-access' })
    expect(client.posted.filter((p) => p.eventType === 'web_app_biometry_request_auth')).toHaveLength(2)
  })

  it('ends an authentication without a verdict as cancelled: replaced by a newer one, or never answered', async () => {
    const client = mobileClient()
    const biometry = featuresOn(client.window, '8.0').biometry
    const first = biometry.authenticate('one')
    client.receive(info(ready))
    await tick()
    const second = biometry.authenticate('two')
    client.receive(info(ready))
    expect(await first).toEqual({ kind: 'cancelled' })
    client.receive('{"eventType":"biometry_auth_requested","eventData":{"status":"authorized"}}')
    expect(await second).toEqual({ kind: 'ok', token: null })

    const silent = biometry.authenticate('three')
    client.receive(info(ready))
    expect(await silent).toEqual({ kind: 'cancelled' })
  })
})

describe('older clients', () => {
  for (const version of ['6.0', '7.0']) {
    it(`a ${version} client has none of them, and nothing is posted`, async () => {
      const client = mobileClient()
      const f = featuresOn(client.window, version)
      expect([f.fullscreen.supported, f.insets.supported, f.homeScreen.supported, f.biometry.supported, f.secureStorage.supported, f.deviceStorage.supported]).toEqual([
        false, false, false, false, false, false,
      ])
      expect(await f.fullscreen.request()).toEqual({ kind: 'unsupported' })
      f.fullscreen.exit()
      f.fullscreen.onChange(() => {})
      expect(f.fullscreen.isFullscreen()).toBe(false)
      expect(f.insets.current()).toEqual({ safeArea: { top: 0, bottom: 0, left: 0, right: 0 }, contentSafeArea: { top: 0, bottom: 0, left: 0, right: 0 } })
      expect(await f.homeScreen.check()).toBe('unsupported')
      expect(await f.homeScreen.add()).toEqual({ kind: 'unsupported' })
      expect(await f.biometry.info()).toEqual({ kind: 'unsupported' })
      expect(await f.biometry.requestAccess('r')).toEqual({ kind: 'unsupported' })
      expect(await f.biometry.authenticate('r')).toEqual({ kind: 'unsupported' })
      expect(await f.secureStorage.get('k')).toEqual({ kind: 'unsupported' })
      expect(await f.deviceStorage.clear()).toEqual({ kind: 'unsupported' })
      expect(client.posted).toEqual([])
    })
  }

  it('a 7.2 client has biometrics but neither fullscreen nor storage', async () => {
    const client = mobileClient()
    const f = featuresOn(client.window, '7.2')
    expect([f.biometry.supported, f.fullscreen.supported, f.homeScreen.supported, f.deviceStorage.supported]).toEqual([true, false, false, false])
  })
})

describe("the device's speed and the user's motion preference", () => {
  it("reads Telegram for Android's performance class from its User-Agent", () => {
    const chrome = 'Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36'
    expect(performanceClassOf(`${chrome} Telegram-Android/11.11.0 (Samsung SM-A155F; Android 14; SDK 34; AVERAGE)`)).toBe('AVERAGE')
    expect(performanceClassOf(`${chrome} Telegram-Android/11.2.3 (Google Pixel 5; Android 13; SDK 33; LOW)`)).toBe('LOW')
    expect(performanceClassOf('Telegram-Android/11.11.0 (Samsung SM-A155F; HIGH)')).toBe('HIGH')
    expect(performanceClassOf(chrome)).toBeNull()
    expect(performanceClassOf('Telegram-Android/11.11.0 (Samsung SM-A155F; Android 14; SDK 34)')).toBeNull()
    expect(performanceClassOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) (LOW)')).toBeNull()
  })

  it('cuts effects for reduced motion or a LOW device', () => {
    const low = 'Telegram-Android/11.2.3 (Google Pixel 5; Android 13; SDK 33; LOW)'
    const high = 'Telegram-Android/11.2.3 (Google Pixel 9; Android 15; SDK 35; HIGH)'
    expect(featuresOn({}, '8.0', { userAgent: low }).reducedEffects()).toBe(true)
    expect(featuresOn({}, '8.0', { userAgent: high }).reducedEffects()).toBe(false)
    expect(featuresOn({}, '8.0', { userAgent: high, prefersReducedMotion: () => true }).reducedEffects()).toBe(true)
    expect(featuresOn({}, '8.0', { userAgent: high }).performanceClass()).toBe('HIGH')
  })
})
