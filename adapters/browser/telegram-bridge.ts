/**
 * Telegram's raw web-app messages, for what @twa-dev/sdk 8.0.2 lacks (Bot API 9.x) and for the 8.0
 * features the platform asks for before the SDK has loaded (it loads after the first paint).
 *
 * The protocol, from Telegram's "Web events" page (core.telegram.org/api/web-events) and the method
 * and event tables of docs.telegram-mini-apps.com/platform/methods and /platform/events:
 * - a method is posted with `window.TelegramWebviewProxy.postEvent(name, JSON.stringify(params))` on
 *   mobile, `window.external.notify(JSON.stringify({eventType, eventData}))` on older desktop
 *   clients, and `window.parent.postMessage(JSON.stringify({eventType, eventData}), '*')` from an
 *   iframe (Telegram Web and the local host emulator);
 * - events come back to an iframe as a `message` from the parent whose data is
 *   JSON `{eventType, eventData}`, and elsewhere through `window.Telegram.WebView.receiveEvent`, which
 *   telegram-web-app.js defines and fans out to `Telegram.WebView.onEvent` listeners.
 * Outside an iframe this reuses that receive path (the SDK's), waiting for the SDK to put it there.
 */

/** The part of `window` the bridge reads. `globalThis` fits it; so does a hand-written fake. */
export interface BridgeWindow {
  readonly TelegramWebviewProxy?: { postEvent(eventType: string, eventData: string): void }
  readonly external?: unknown
  readonly parent?: unknown
  readonly Telegram?: {
    readonly WebView?: {
      onEvent(eventType: string, callback: (eventType: string, eventData: unknown) => void): void
      offEvent(eventType: string, callback: (eventType: string, eventData: unknown) => void): void
    }
  }
  addEventListener?(type: 'message', listener: (event: { readonly source?: unknown; readonly data?: unknown }) => void): void
}

type Listener = (data: unknown) => void

export interface TelegramBridge {
  /** Posts a method to the client. False when there is no Telegram around it (nothing was posted). */
  post(method: string, params?: Readonly<Record<string, unknown>>): boolean
  /** Listens to one event type; returns an unsubscribe. */
  on(eventType: string, listener: Listener): () => void
}

const inIframe = (w: BridgeWindow): boolean => w.parent != null && w.parent !== w

const hasNotify = (w: BridgeWindow): w is BridgeWindow & { external: { notify(s: string): void } } =>
  typeof w.external === 'object' && w.external !== null && typeof (w.external as { notify?: unknown }).notify === 'function'

/** How often, and for how long, to look for the SDK's receive path on a native client (ms). */
const SDK_POLL_MS = 50
const SDK_POLL_LIMIT_MS = 60_000

/** The bridge over a real (or fake) window. Nothing is attached until the first call. */
export const windowBridge = (w: BridgeWindow = globalThis as unknown as BridgeWindow): TelegramBridge => {
  const listeners = new Map<string, Set<Listener>>()
  const dispatch = (eventType: string, eventData: unknown) => {
    for (const l of [...(listeners.get(eventType) ?? [])]) {
      try {
        l(eventData)
      } catch {
        // One listener's failure must not keep the event from the others.
      }
    }
  }
  // Native clients: one SDK subscription per event type, made once the SDK's WebView is there.
  const viaSdk = new Set<string>()
  const sdkCallback = (eventType: string, eventData: unknown) => dispatch(eventType, eventData)
  let pollStarted = false
  const subscribeSdk = () => {
    const webView = w.Telegram?.WebView
    if (!webView) return false
    for (const type of listeners.keys()) {
      if (viaSdk.has(type)) continue
      viaSdk.add(type)
      webView.onEvent(type, sdkCallback)
    }
    return true
  }
  let messagesAttached = false
  const attach = () => {
    if (inIframe(w)) {
      if (messagesAttached || !w.addEventListener) return
      messagesAttached = true
      w.addEventListener('message', (event) => {
        if (event.source !== w.parent) return
        let parsed: unknown
        try {
          parsed = typeof event.data === 'string' ? JSON.parse(event.data) : event.data
        } catch {
          return
        }
        const message = parsed as { eventType?: unknown; eventData?: unknown } | null
        if (!message || typeof message.eventType !== 'string') return
        dispatch(message.eventType, message.eventData)
      })
      return
    }
    if (subscribeSdk() || pollStarted) return
    pollStarted = true
    const started = Date.now()
    const timer = setInterval(() => {
      if (subscribeSdk() || Date.now() - started > SDK_POLL_LIMIT_MS) clearInterval(timer)
    }, SDK_POLL_MS)
  }

  return {
    post(method, params) {
      const eventData = params ?? ''
      try {
        if (w.TelegramWebviewProxy !== undefined) {
          w.TelegramWebviewProxy.postEvent(method, JSON.stringify(eventData))
          return true
        }
        if (hasNotify(w)) {
          w.external.notify(JSON.stringify({ eventType: method, eventData }))
          return true
        }
        if (inIframe(w)) {
          ;(w.parent as { postMessage(message: string, target: string): void }).postMessage(JSON.stringify({ eventType: method, eventData }), '*')
          return true
        }
      } catch {
        return false
      }
      return false
    },
    on(eventType, listener) {
      let set = listeners.get(eventType)
      if (!set) listeners.set(eventType, (set = new Set()))
      set.add(listener)
      attach()
      return () => void listeners.get(eventType)?.delete(listener)
    },
  }
}

/** A request id unique within this page: Telegram echoes it in the answer (`req_id`). */
let requests = 0
export const nextRequestId = (): string => `axiom_${Date.now().toString(36)}_${(++requests).toString(36)}`

/**
 * Posts `method` and resolves with the first answer one of `answers` reads (a reader returns
 * undefined for an event that is not this request's), or `onTimeout()` after `timeoutMs`.
 * Listens before posting, so an answer given at once is not missed.
 */
export const ask = <T>(
  bridge: TelegramBridge,
  o: {
    readonly method: string
    readonly params?: Readonly<Record<string, unknown>>
    readonly answers: Readonly<Record<string, (data: unknown) => T | undefined>>
    readonly timeoutMs: number
    readonly onTimeout: () => T
    readonly onNotPosted: () => T
  },
): Promise<T> =>
  new Promise<T>((resolve) => {
    const stops: Array<() => void> = []
    let timer: ReturnType<typeof setTimeout> | undefined
    let done = false
    const finish = (value: T) => {
      if (done) return
      done = true
      if (timer !== undefined) clearTimeout(timer)
      for (const stop of stops) stop()
      resolve(value)
    }
    for (const [eventType, read] of Object.entries(o.answers)) {
      stops.push(
        bridge.on(eventType, (data) => {
          const value = read(data)
          if (value !== undefined) finish(value)
        }),
      )
    }
    if (!bridge.post(o.method, o.params)) return finish(o.onNotPosted())
    if (!done) timer = setTimeout(() => finish(o.onTimeout()), o.timeoutMs)
  })
