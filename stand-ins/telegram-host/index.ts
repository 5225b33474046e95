/**
 * The local Telegram host emulator: a page that launches the mini app in an iframe the way
 * Telegram Web does (signed initData in the launch hash, the host side of the web-app messages
 * over postMessage). The bot token stays here: the page asks POST /launch for a signed fragment.
 *
 * Routes: GET / (the page), GET /host.js (its script), POST /launch, POST /join-community,
 * POST /community, GET /health; the Bot API, /bot<token>/<method> (bot-api.ts); and the page's side of
 * it: GET /chat?user=<id> (the bot's chat with that user), POST /chat (the user writes to the
 * bot), POST /chat/block, POST /write-access (the user answered the app's requestWriteAccess), GET
 * /prepared/<id> (a prepared message being shared). Anything else, a
 * frame's document and WebSocket upgrades go to the app's server: the app as a client before 6.1 gets
 * it, from this origin (SAME_ORIGIN_BEFORE_VERSION).
 *
 * The page plays the device too (host-client.js): fullscreen on a notched phone with its insets and
 * Telegram's controls over the app, the home screen, biometrics and SecureStorage / DeviceStorage
 * (Bot API 7.2–9.x), each answered only to a client version that has it. A launch with a
 * `performance_class` (android) gets Telegram for Android's User-Agent in its frame (GET
 * /host-user-agent.js, USER_AGENT_PARAM).
 *
 * POST /launch takes the launch form ({ user, start_param, version, platform, color_scheme, performance_class }) or,
 * instead of start_param, a `link`: a t.me link to the bot, routed as Telegram does (launchFromLink).
 * The page takes the same as its query (`?user=…&start=…` or `?user=…&link=<t.me link>`).
 */
import { readFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { buildLaunch, DEFAULT_PLATFORM, DEFAULT_VERSION, LaunchError, launchFromLink, parseLaunchRequest, PLATFORMS, userAgentFor, versionAtLeast } from './launch.ts'
import type { LinkLaunch } from './launch.ts'
import { THEMES } from './themes.ts'
import { answerBotApi, createBotApiState, type BotApiState, type EmulatedUser } from './bot-api.ts'

export { buildLaunch, launchFromLink, parseLaunchRequest, userAgentFor, type Launch, type LaunchRequest, type LinkLaunch, type MiniAppNames } from './launch.ts'
export { THEMES, type ColorScheme, type ThemeParams } from './themes.ts'
export { createBotApiState, startBotApiServer, type BotApiState, type RunningBotApi } from './bot-api.ts'

/** The part of the backend's admin (server/admin-ops.ts) the host needs. */
export interface HostAdmin {
  setMember(tgId: number | string, member: boolean): unknown | Promise<unknown>
}

export interface TelegramHostOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number
  /** Interface to bind; 127.0.0.1 by default. The /launch endpoint signs with the bot token: keep it local. */
  readonly host?: string
  /** The mini app's URL, without a hash, e.g. http://127.0.0.1:5173/ */
  readonly appUrl: string
  readonly botToken: string
  /** Called by POST /join-community when the app opens the community link. */
  readonly admin?: HostAdmin
  /** The bot's @username, shown in the header (default axiom_dev_bot, as the UI's DEFAULT_UI_CONFIG). */
  readonly botUsername?: string
  /** The mini app's short name on the bot, for direct links t.me/<bot>/<app> (default app, as the UI's DEFAULT_UI_CONFIG). */
  readonly appShortName?: string
  /** The bot's display name in the header (default AXIOM). */
  readonly botName?: string
  /** The community link's path on t.me (default /axiom_community). */
  readonly communityPath?: string
  /** The signing clock (tests). */
  readonly now?: () => Date
  /** The Bot API state to serve and show (a test stack starts it first); by default the host makes its own. */
  readonly botApi?: BotApiState
  /**
   * The app's requestWriteAccess: 'ask' shows Telegram's prompt (default), 'allow' answers allowed at
   * once (a test stack whose users are not there to tap). The page's `?write_access=` overrides it.
   */
  readonly writeAccess?: 'ask' | 'allow'
}

export interface RunningTelegramHost {
  /** http://host:port/ — open it in a browser. */
  readonly url: string
  readonly port: number
  /** Its Bot API: the state behind /bot<token>/<method>. */
  readonly botApi: BotApiState
  close(): Promise<void>
}

const here = new URL('.', import.meta.url)
const MAX_BODY = 16 * 1024

const readBody = (req: IncomingMessage): Promise<unknown> =>
  new Promise((resolve, reject) => {
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY) {
        reject(new LaunchError('body too large'))
        req.destroy()
        return
      }
      chunks.push(c)
    })
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      if (raw.trim() === '') return resolve({})
      try {
        resolve(JSON.parse(raw))
      } catch {
        reject(new LaunchError('body is not JSON'))
      }
    })
    req.on('error', reject)
  })

const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json; charset=utf-8') => {
  const payload = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
  res.end(payload)
}

/** A JSON island: `<` escaped so no value can close the script element. */
const jsonForHtml = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c')

const userIdOf = (body: unknown): number => {
  const b = (body ?? {}) as Record<string, unknown>
  const raw = b.user_id ?? b.id
  const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw new LaunchError('user_id must be a positive integer')
  return id
}

/**
 * Clients before 6.1 were native apps: their WebView sees every window.open and routes t.me links
 * itself (the SDK's openLink is a window.open there). A page cannot see a cross-origin iframe's
 * window.open, so for those clients the host serves the app from its own origin, proxied to the app's
 * server, and its page wraps the frame's window.open. Later clients keep the app on its own origin, as
 * Telegram Web does.
 */
export const SAME_ORIGIN_BEFORE_VERSION = '6.1'

/** Forwards a request of the proxied app to its server, as is. */
const proxyTo = (target: URL, req: IncomingMessage, res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const upstream = httpRequest(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        answer.on('end', resolve)
        answer.on('error', () => resolve(void res.destroy()))
      },
    )
    upstream.on('error', (e) => {
      if (res.headersSent) res.destroy()
      else send(res, 502, { error: `the app's server: ${e.message}` })
      resolve()
    })
    req.pipe(upstream)
  })

/**
 * A launch with a User-Agent of its own (Telegram for Android's, with a performance class): a page
 * cannot set its frame's User-Agent, so the host serves that frame from its own origin, as for an old
 * client, with `?tgHostUserAgent=` on its URL; its document gets, before any of the app's scripts,
 * /host-user-agent.js, which makes navigator.userAgent read that string.
 */
export const USER_AGENT_PARAM = 'tgHostUserAgent'

const userAgentScript = (ua: string) =>
  `(() => { const ua = ${jsonForHtml(ua)}; Object.defineProperty(Navigator.prototype, 'userAgent', { get: () => ua, configurable: true }) })()\n`

/** The app's document for a frame with its own User-Agent: fetched without the parameter, the script put first in its head. */
const proxyWithUserAgent = (target: URL, req: IncomingMessage, res: ServerResponse, ua: string) =>
  new Promise<void>((resolve) => {
    const url = new URL(req.url ?? '/', 'http://host')
    url.searchParams.delete(USER_AGENT_PARAM)
    const upstream = httpRequest(
      { hostname: target.hostname, port: target.port, method: req.method, path: url.pathname + url.search, headers: { ...req.headers, host: target.host, 'accept-encoding': 'identity' } },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (c: Buffer) => chunks.push(c))
        answer.on('end', () => {
          const headers = { ...answer.headers }
          delete headers['content-length']
          let body: string | Buffer = Buffer.concat(chunks)
          if (String(headers['content-type'] ?? '').includes('text/html')) {
            const tag = `<script src="/host-user-agent.js?ua=${encodeURIComponent(ua)}"></script>`
            const html = body.toString('utf8')
            body = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => head + tag) : tag + html
          }
          res.writeHead(answer.statusCode ?? 502, headers)
          res.end(body)
          resolve()
        })
        answer.on('error', () => resolve(void res.destroy()))
      },
    )
    upstream.on('error', (e) => {
      send(res, 502, { error: `the app's server: ${e.message}` })
      resolve()
    })
    req.pipe(upstream)
  })

/** Forwards a WebSocket upgrade (the app's /api/ws) to the app's server, byte for byte. */
const proxyUpgrade = (target: URL, req: IncomingMessage, socket: Socket, head: Buffer) => {
  const upstream = connect(Number(target.port || 80), target.hostname, () => {
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`]
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!
      lines.push(`${name}: ${name.toLowerCase() === 'host' ? target.host : req.rawHeaders[i + 1]}`)
    }
    upstream.write(lines.join('\r\n') + '\r\n\r\n')
    if (head.length) upstream.write(head)
    upstream.pipe(socket)
    socket.pipe(upstream)
  })
  // A page that closes or reloads drops its socket: close the app server's side cleanly (FIN, what is
  // still coming drained), not with a reset it would log as an error.
  socket.on('close', () => {
    upstream.unpipe(socket)
    upstream.resume()
    upstream.end()
  })
  upstream.on('close', () => socket.destroy())
  upstream.on('error', () => socket.destroy())
  socket.on('error', () => undefined)
}

/** Starts the emulator on 127.0.0.1 (by default a free port). */
export const startTelegramHost = async (options: TelegramHostOptions): Promise<RunningTelegramHost> => {
  const appUrl = new URL(options.appUrl)
  appUrl.hash = ''
  const config = {
    appUrl: appUrl.href,
    appOrigin: appUrl.origin,
    botUsername: options.botUsername ?? 'axiom_dev_bot',
    appShortName: options.appShortName ?? 'app',
    botName: options.botName ?? 'AXIOM',
    communityPath: options.communityPath ?? '/axiom_community',
    hasAdmin: options.admin !== undefined,
    writeAccess: options.writeAccess ?? 'ask',
    themes: THEMES,
    platforms: PLATFORMS,
    defaults: { user: 1001, name: 'Alice', lang: 'en', start: '', version: DEFAULT_VERSION, platform: DEFAULT_PLATFORM, scheme: 'light' },
  }
  const [pageTemplate, script] = await Promise.all([
    readFile(new URL('page.html', here), 'utf8'),
    readFile(new URL('host-client.js', here), 'utf8'),
  ])
  const page = pageTemplate.replace('__HOST_CONFIG__', () => jsonForHtml(config))
  const now = options.now ?? (() => new Date())

  const botApi =
    options.botApi ??
    createBotApiState({
      token: options.botToken,
      botUsername: config.botUsername,
      botName: config.botName,
      communityChat: '@' + config.communityPath.replace(/^\/+|\/+$/g, ''),
    })

  /**
   * Joining or leaving changes what getChatMember answers (what a backend with AXIOM_COMMUNITY_CHAT
   * asks). A wired admin also writes the backend's flag directly, for a backend without one (dev).
   */
  const setMember = async (id: number, member: boolean) => {
    botApi.setMember(id, member)
    if (!options.admin) return { status: 200, body: { ok: true, user_id: id, member, backend: 'not wired' } }
    try {
      await options.admin.setMember(id, member)
      return { status: 200, body: { ok: true, user_id: id, member, backend: 'updated' } }
    } catch (e) {
      const status = typeof (e as { statusCode?: unknown }).statusCode === 'number' ? (e as { statusCode: number }).statusCode : 500
      return { status: 200, body: { ok: true, user_id: id, member, backend: status === 404 ? 'unknown user' : `error: ${e instanceof Error ? e.message : String(e)}` } }
    }
  }

  const userOf = (raw: unknown): EmulatedUser => {
    const u = (raw ?? {}) as Record<string, unknown>
    const id = userIdOf({ id: u.id })
    const first = typeof u.first_name === 'string' && u.first_name.trim() !== '' ? u.first_name.slice(0, 64) : `User ${id}`
    const lang = typeof u.language_code === 'string' && /^[a-z]{2,3}$/.test(u.language_code) ? u.language_code : undefined
    return { id, first_name: first, ...(lang ? { language_code: lang } : {}) }
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (await answerBotApi(botApi, req, res)) return
    const url = new URL(req.url ?? '/', 'http://host')
    const path = url.pathname
    const method = req.method ?? 'GET'
    if (method === 'GET' && path === '/chat') {
      const id = userIdOf({ id: url.searchParams.get('user') ?? '' })
      return send(res, 200, {
        messages: botApi.chatOf(id, Number(url.searchParams.get('after') ?? 0) || 0),
        member: botApi.members.get(id) ?? 'left',
        blocked: botApi.blocked.has(id),
        menu_button: botApi.menuButton,
        commands: botApi.commands,
        consumer: botApi.webhook ? 'webhook' : botApi.calls.some((c) => c.method === 'getUpdates' && Date.now() - c.at < 60_000) ? 'polling' : 'none',
      })
    }
    if (method === 'POST' && path === '/chat') {
      const body = (await readBody(req)) as Record<string, unknown>
      const text = body.text
      if (typeof text !== 'string' || text.trim() === '' || text.length > 4096) throw new LaunchError('text must be 1–4096 characters')
      return send(res, 200, botApi.userWrites(userOf(body.user), text.trim()))
    }
    if (method === 'POST' && path === '/chat/block') {
      const body = (await readBody(req)) as Record<string, unknown>
      const id = userIdOf(body)
      if (typeof body.blocked !== 'boolean') throw new LaunchError('blocked must be a boolean')
      botApi.setBlocked(id, body.blocked)
      return send(res, 200, { ok: true, user_id: id, blocked: body.blocked })
    }
    if (method === 'GET' && path.startsWith('/prepared/')) {
      const prepared = botApi.prepared.get(decodeURIComponent(path.slice('/prepared/'.length)))
      return prepared ? send(res, 200, prepared) : send(res, 404, { error: 'No such prepared message' })
    }
    // The app, served from this origin to a client before 6.1: its frame's document (the host's own
    // page is a top-level document) and whatever else is not the host's.
    if (req.headers['sec-fetch-dest'] === 'iframe') {
      const ua = url.searchParams.get(USER_AGENT_PARAM)
      return ua ? proxyWithUserAgent(appUrl, req, res, ua) : proxyTo(appUrl, req, res)
    }
    if (method === 'GET' && path === '/host-user-agent.js') {
      return send(res, 200, userAgentScript(url.searchParams.get('ua') ?? ''), 'text/javascript; charset=utf-8')
    }
    if ((method === 'GET' || method === 'HEAD') && (path === '/' || path === '/index.html')) {
      return send(res, 200, page, 'text/html; charset=utf-8')
    }
    if ((method === 'GET' || method === 'HEAD') && path === '/host.js') return send(res, 200, script, 'text/javascript; charset=utf-8')
    if (method === 'GET' && path === '/health') return send(res, 200, { ok: true })
    if (method === 'POST' && path === '/launch') {
      const body = (await readBody(req)) as Record<string, unknown> | null
      let fromLink: LinkLaunch | null = null
      if (body && typeof body === 'object' && body.link !== undefined && body.link !== '') {
        if (typeof body.start_param === 'string' && body.start_param !== '') throw new LaunchError('give start_param or link, not both')
        fromLink = launchFromLink(body.link, config)
      }
      const request = parseLaunchRequest(fromLink ? { ...body, start_param: fromLink.start_param } : body)
      botApi.knowUser(request.user)
      // A ?start= link opens the bot's chat, and Telegram sends the bot /start <code>.
      if (fromLink?.opens === 'bot-chat') botApi.userWrites(request.user, fromLink.bot_start ? `/start ${fromLink.bot_start}` : '/start')
      const launch = buildLaunch(request, options.botToken, now(), { allowsWriteToPm: botApi.canWriteTo(request.user.id) })
      const userAgent = userAgentFor(request)
      const sameOrigin = userAgent !== null || !versionAtLeast(request.version ?? DEFAULT_VERSION, SAME_ORIGIN_BEFORE_VERSION)
      const frame = new URL(sameOrigin ? `http://${req.headers.host}${appUrl.pathname}${appUrl.search}` : config.appUrl)
      if (userAgent) frame.searchParams.set(USER_AGENT_PARAM, userAgent)
      return send(res, 200, {
        hash: launch.hash,
        initData: launch.initData,
        url: `${frame.href}#${launch.hash}`,
        ...(userAgent ? { user_agent: userAgent } : {}),
        start_param: request.start_param ?? '',
        ...(fromLink ? { opens: fromLink.opens, ...(fromLink.bot_start ? { bot_start: fromLink.bot_start } : {}) } : {}),
      })
    }
    // The user answered the app's requestWriteAccess prompt (the page's popup).
    if (method === 'POST' && path === '/write-access') {
      const body = (await readBody(req)) as Record<string, unknown>
      const id = userIdOf(body)
      if (typeof body.allowed !== 'boolean') throw new LaunchError('allowed must be a boolean')
      if (body.allowed) botApi.allowWrites(id)
      return send(res, 200, { ok: true, can_write: botApi.canWriteTo(id) })
    }
    if (method === 'POST' && path === '/join-community') {
      const r = await setMember(userIdOf(await readBody(req)), true)
      return send(res, r.status, r.body)
    }
    if (method === 'POST' && path === '/community') {
      const body = await readBody(req)
      const member = (body as { member?: unknown }).member
      if (typeof member !== 'boolean') throw new LaunchError('member must be a boolean')
      const r = await setMember(userIdOf(body), member)
      return send(res, r.status, r.body)
    }
    return proxyTo(appUrl, req, res)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return res.destroy()
      if (e instanceof LaunchError) send(res, 400, { error: e.message })
      else send(res, 500, { error: e instanceof Error ? e.message : String(e) })
    })
  })
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => proxyUpgrade(appUrl, req, socket, head))
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    botApi,
    close: () =>
      new Promise<void>((resolve, reject) => {
        botApi.close()
        server.close((e) => (e ? reject(e) : resolve()))
        server.closeAllConnections()
      }),
  }
}
