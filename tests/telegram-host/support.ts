import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** Telegram's telegram-web-app.js, as @twa-dev/sdk bundles it. */
export const telegramWebAppJsPath = (): string => {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('@twa-dev/sdk')), 'telegram-web-apps.js')
}

/**
 * A stand-in mini app that loads the real telegram-web-app.js and records what the host sends:
 * back presses, activated/deactivated, share results, popup results.
 */
export const STAND_IN_APP = `<!doctype html>
<html><head><meta charset="utf-8"><title>stand-in</title><script src="/telegram-web-app.js"></script></head>
<body>
<h1>Stand-in app</h1>
<div id="back">0</div>
<script>
  window.appLog = { back: 0, activated: 0, deactivated: 0, shared: [], popups: [], themes: 0 }
  const W = window.Telegram.WebApp
  W.BackButton.onClick(() => { appLog.back++; document.getElementById('back').textContent = String(appLog.back) })
  W.onEvent('activated', () => appLog.activated++)
  W.onEvent('deactivated', () => appLog.deactivated++)
  W.onEvent('themeChanged', () => appLog.themes++)
  W.ready()
</script>
</body></html>`

export interface StaticApp {
  /** The app's URL (the page), e.g. http://127.0.0.1:1234/app/ */
  readonly url: string
  readonly origin: string
  close(): Promise<void>
}

/** Serves the stand-in app at /app/ and telegram-web-app.js, on a free port. */
export const startStandInApp = async (): Promise<StaticApp> => {
  const sdk = await readFile(telegramWebAppJsPath(), 'utf8')
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path === '/telegram-web-app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' })
      return res.end(sdk)
    }
    if (path === '/app/' || path === '/app/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return res.end(STAND_IN_APP)
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: `${origin}/app/`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export const TEST_BOT_TOKEN = '7000000042:telegram-host-test-token'

/** Records what the host asks the backend admin to do. */
export const fakeAdmin = () => {
  const calls: Array<[number | string, boolean]> = []
  return {
    calls,
    setMember(tgId: number | string, member: boolean) {
      calls.push([tgId, member])
    },
  }
}
