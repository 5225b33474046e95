/**
 * A stand-in for the Telegram client around the mini app, for happy-dom tests: it puts the launch
 * parameters in location.hash, as Telegram does, and receives what the SDK posts through
 * window.TelegramWebviewProxy, as Telegram's mobile clients do.
 */
export interface PostedEvent {
  readonly eventType: string
  readonly eventData: unknown
}

export interface TelegramHost {
  readonly posted: PostedEvent[]
  /** The events of one type, in order. */
  of(eventType: string): unknown[]
  /** Sends an event from the client to the app, as Telegram does with Telegram.WebView.receiveEvent. */
  send(eventType: string, eventData?: unknown): void
}

export interface LaunchParams {
  readonly initData?: string
  readonly version: string
  readonly platform?: string
}

export const initDataFor = (user: object, extra: Record<string, string> = {}): string =>
  new URLSearchParams({ query_id: 'AAHdF6IQAAAAAN0XohDhrOrc', user: JSON.stringify(user), auth_date: '1700000000', ...extra, hash: 'c0ffee' }).toString()

/** Call before the SDK is imported: it reads the hash once, when it loads. */
export const launchInTelegram = (params: LaunchParams): TelegramHost => {
  const hash = new URLSearchParams({
    ...(params.initData === undefined ? {} : { tgWebAppData: params.initData }),
    tgWebAppVersion: params.version,
    tgWebAppPlatform: params.platform ?? 'ios',
    tgWebAppThemeParams: JSON.stringify({ bg_color: '#ffffff', text_color: '#000000' }),
  })
  ;(window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`https://app.example.com/#${hash}`)
  const posted: PostedEvent[] = []
  const proxy = {
    postEvent: (eventType: string, eventData: string) => {
      posted.push({ eventType, eventData: eventData === '""' ? null : JSON.parse(eventData) })
    },
  }
  Object.assign(globalThis, { TelegramWebviewProxy: proxy })
  Object.assign(window, { TelegramWebviewProxy: proxy })
  return {
    posted,
    of: (eventType) => posted.filter((e) => e.eventType === eventType).map((e) => e.eventData),
    send: (eventType, eventData) => {
      const webView = (window as unknown as { Telegram: { WebView: { receiveEvent(t: string, d: unknown): void } } })
        .Telegram.WebView
      webView.receiveEvent(eventType, eventData)
    },
  }
}
