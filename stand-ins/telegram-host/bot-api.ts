/**
 * The emulator's Bot API server (core.telegram.org/bots/api): `/bot<token>/<method>` for every
 * method AXIOM's backend and bot call, with Telegram's envelopes and error shapes —
 * `{ok:true,result}` or `{ok:false,error_code,description,parameters?}`, the HTTP status being the
 * error_code. Its state is what the host page shows: the bot's chat with each user, the community's
 * members (what getChatMember answers), prepared messages, and the updates the bot consumes
 * (getUpdates, or a webhook with its secret token; one consumer at a time, else 409 as Telegram).
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type MemberStatus = 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked'

export interface EmulatedUser {
  readonly id: number
  readonly first_name: string
  readonly language_code?: string
}

/** A message in the bot's chat with a user, either way. */
export interface ChatMessage {
  readonly message_id: number
  readonly from: 'bot' | 'user'
  readonly text: string
  readonly date: number
  readonly reply_markup?: unknown
}

export interface PreparedMessage {
  readonly id: string
  readonly user_id: number
  readonly result: Record<string, unknown>
  readonly expiration_date: number
  readonly allowed: { user: boolean; bot: boolean; group: boolean; channel: boolean }
}

/** An update as the Bot API sends it: its id and one of its kinds (the ones the emulator makes). */
interface Update {
  readonly update_id: number
  readonly message?: Record<string, unknown>
  readonly chat_member?: Record<string, unknown>
  readonly my_chat_member?: Record<string, unknown>
}

export interface BotApiOptions {
  readonly token: string
  readonly botUsername: string
  readonly botName: string
  /** The community chat's @username (getChatMember answers for it). */
  readonly communityChat: string
  /** Messages a second before a 429 (Telegram: about 30). */
  readonly maxPerSecond?: number
}

/** A Bot API failure as Telegram words it. */
export class BotApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly retryAfter?: number,
  ) {
    super(description)
  }
}

const badRequest = (what: string) => new BotApiError(400, `Bad Request: ${what}`)

const intParam = (p: Record<string, unknown>, name: string): number => {
  const v = typeof p[name] === 'string' && /^-?\d+$/.test(p[name] as string) ? Number(p[name]) : p[name]
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw badRequest(`${name} is required`)
  return v
}

/**
 * `allowed_updates` as getUpdates and setWebhook take it (an array, or its JSON); null when not given,
 * which keeps the consumer's last choice, as Telegram does.
 */
const allowedUpdatesParam = (p: Record<string, unknown>): string[] | null => {
  let v = p.allowed_updates
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      throw badRequest("can't parse allowed_updates JSON array")
    }
  }
  if (v === undefined) return null
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string')) throw badRequest("can't parse allowed_updates JSON array")
  return v as string[]
}

/** What a consumer gets with no allowed_updates ever given (Bot API): every type but these. */
const NOT_BY_DEFAULT = new Set(['chat_member', 'message_reaction', 'message_reaction_count'])

const objParam = (p: Record<string, unknown>, name: string): Record<string, unknown> | undefined => {
  let v = p[name]
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      throw badRequest(`can't parse ${name} JSON object`)
    }
  }
  if (v === undefined) return undefined
  if (typeof v !== 'object' || v === null) throw badRequest(`can't parse ${name} JSON object`)
  return v as Record<string, unknown>
}

export interface BotApiState {
  readonly options: BotApiOptions
  readonly botId: number
  /** Users the host launched (Telegram knows them); sendMessage needs a user who started the bot. */
  readonly users: Map<number, EmulatedUser>
  readonly chats: Map<number, ChatMessage[]>
  readonly members: Map<number, MemberStatus>
  /** Users who blocked the bot: sendMessage answers 403. */
  readonly blocked: Set<number>
  readonly prepared: Map<string, PreparedMessage>
  commands: unknown[]
  menuButton: unknown
  webhook: { url: string; secret_token?: string } | null
  /** Every call made, newest last (for the page and tests). */
  readonly calls: Array<{ method: string; at: number; error?: string }>
  /** Handles one Bot API request; throws BotApiError. */
  call(method: string, params: Record<string, unknown>): Promise<unknown>
  /** A user writes to the bot (what the page's chat input and a ?start= link do). */
  userWrites(user: EmulatedUser, text: string): ChatMessage
  /** Join (member) or leave (left) the community. */
  setMember(userId: number, member: boolean): void
  /** The user blocks or unblocks the bot (the bot hears it as my_chat_member). */
  setBlocked(userId: number, blocked: boolean): void
  /**
   * The user allowed the bot to write to them (the app's requestWriteAccess): their chat with the bot
   * exists from now on, so sendMessage reaches them though they never started it.
   */
  allowWrites(userId: number): void
  /** Whether sendMessage reaches the user: they started the bot or allowed it, and did not block it (initData's allows_write_to_pm). */
  canWriteTo(userId: number): boolean
  knowUser(user: EmulatedUser): void
  /** Messages of the chat with userId after message_id `after`. */
  chatOf(userId: number, after?: number): ChatMessage[]
  close(): void
}

const now = () => Math.floor(Date.now() / 1000)
/** The community's chat id in the updates (a supergroup's: -100…). */
const COMMUNITY_CHAT_ID = -1_001_000_000_001

export const createBotApiState = (options: BotApiOptions): BotApiState => {
  const botId = Number(options.token.split(':')[0]) || 7_000_000_001
  const updates: Update[] = []
  let nextUpdateId = 1
  let nextMessageId = 1
  const waiters = new Set<() => void>()
  let polling: { cancel: () => void } | null = null
  const sentAt: number[] = []
  const maxPerSecond = options.maxPerSecond ?? 30
  let delivering = false
  /** The update types the consumer asked for (null: the default set). */
  let allowedUpdates: string[] | null = null
  const wants = (type: string) => (allowedUpdates === null || allowedUpdates.length === 0 ? !NOT_BY_DEFAULT.has(type) : allowedUpdates.includes(type))

  const botUser = { id: botId, is_bot: true, first_name: options.botName, username: options.botUsername }
  const wake = () => {
    for (const w of [...waiters]) w()
    if (state.webhook) void deliverToWebhook()
  }

  const deliverToWebhook = async () => {
    if (delivering) return
    delivering = true
    try {
      while (state.webhook && updates.length > 0) {
        const hook = state.webhook
        const update = updates[0]!
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(hook.secret_token ? { 'x-telegram-bot-api-secret-token': hook.secret_token } : {}) },
          body: JSON.stringify(update),
        }).catch(() => null)
        if (!res || !res.ok) {
          // Telegram tries a failing webhook again later.
          await new Promise((r) => setTimeout(r, 1000))
          continue
        }
        updates.shift()
      }
    } finally {
      delivering = false
    }
  }

  const chatArray = (userId: number) => {
    let c = state.chats.get(userId)
    if (!c) state.chats.set(userId, (c = []))
    return c
  }

  const telegramUser = (u: EmulatedUser) => ({ id: u.id, is_bot: false, first_name: u.first_name, ...(u.language_code ? { language_code: u.language_code } : {}) })

  const getUpdates = async (p: Record<string, unknown>) => {
    if (state.webhook) throw new BotApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first")
    allowedUpdates = allowedUpdatesParam(p) ?? allowedUpdates
    // A second consumer ends the first one's request, as Telegram does.
    polling?.cancel()
    const offset = p.offset === undefined ? 0 : intParam(p, 'offset')
    const limit = p.limit === undefined ? 100 : Math.min(100, Math.max(1, intParam(p, 'limit')))
    const timeout = p.timeout === undefined ? 0 : Math.min(50, Math.max(0, intParam(p, 'timeout')))
    if (offset > 0) while (updates.length > 0 && updates[0]!.update_id < offset) updates.shift()
    if (updates.length === 0 && timeout > 0) {
      const ended = await new Promise<'update' | 'timeout' | 'conflict'>((resolve) => {
        const done = (why: 'update' | 'timeout' | 'conflict') => {
          clearTimeout(timer)
          waiters.delete(onUpdate)
          if (polling === me) polling = null
          resolve(why)
        }
        const onUpdate = () => done('update')
        const timer = setTimeout(() => done('timeout'), timeout * 1000)
        const me = { cancel: () => done('conflict') }
        polling = me
        waiters.add(onUpdate)
      })
      if (ended === 'conflict') throw new BotApiError(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running')
    }
    return updates.slice(0, limit)
  }

  const sendMessage = (p: Record<string, unknown>) => {
    const chatId = intParam(p, 'chat_id')
    const text = p.text
    if (typeof text !== 'string' || text.trim() === '') throw badRequest('message text is empty')
    if (text.length > 4096) throw badRequest('message is too long')
    if (state.blocked.has(chatId)) throw new BotApiError(403, 'Forbidden: bot was blocked by the user')
    const user = state.users.get(chatId)
    if (!user) throw badRequest('chat not found')
    // Telegram knows the user (they opened the app) but they never started the bot nor allowed it.
    if (!state.chats.has(chatId)) throw new BotApiError(403, "Forbidden: bot can't initiate conversation with a user")
    const t = Date.now()
    while (sentAt.length > 0 && sentAt[0]! <= t - 1000) sentAt.shift()
    if (sentAt.length >= maxPerSecond) throw new BotApiError(429, 'Too Many Requests: retry after 1', 1)
    sentAt.push(t)
    const markup = objParam(p, 'reply_markup')
    const message: ChatMessage = { message_id: nextMessageId++, from: 'bot', text, date: now(), ...(markup ? { reply_markup: markup } : {}) }
    chatArray(chatId).push(message)
    return { message_id: message.message_id, from: botUser, chat: { id: chatId, type: 'private', first_name: user.first_name }, date: message.date, text, ...(markup ? { reply_markup: markup } : {}) }
  }

  const communityMatches = (chat: unknown) => {
    const name = options.communityChat.toLowerCase()
    return typeof chat === 'string' && (chat.toLowerCase() === name || chat.toLowerCase() === `@${name.replace(/^@/, '')}`)
  }

  const methods: Record<string, (p: Record<string, unknown>) => unknown> = {
    getMe: () => ({ ...botUser, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false }),
    getUpdates,
    sendMessage,
    answerCallbackQuery: (p) => {
      if (typeof p.callback_query_id !== 'string') throw badRequest('query is too old and response timeout expired or query ID is invalid')
      return true
    },
    getChatMember: (p) => {
      if (!communityMatches(p.chat_id)) throw badRequest('chat not found')
      const userId = intParam(p, 'user_id')
      const user = state.users.get(userId)
      if (!user) throw badRequest('user not found')
      const status = state.members.get(userId) ?? 'left'
      return { status, user: telegramUser(user), ...(status === 'restricted' ? { is_member: true, until_date: 0 } : {}) }
    },
    savePreparedInlineMessage: (p) => {
      const userId = intParam(p, 'user_id')
      const result = objParam(p, 'result')
      if (!result || typeof result.type !== 'string' || typeof result.id !== 'string') throw badRequest('RESULT_ID_INVALID')
      const allowed = { user: p.allow_user_chats === true, bot: p.allow_bot_chats === true, group: p.allow_group_chats === true, channel: p.allow_channel_chats === true }
      if (!allowed.user && !allowed.bot && !allowed.group && !allowed.channel) throw badRequest('PEER_TYPES_INVALID')
      if (!state.users.has(userId)) throw badRequest('USER_ID_INVALID')
      const prepared: PreparedMessage = { id: randomBytes(9).toString('base64url'), user_id: userId, result, expiration_date: now() + 86_400, allowed }
      state.prepared.set(prepared.id, prepared)
      return { id: prepared.id, expiration_date: prepared.expiration_date }
    },
    setMyCommands: (p) => {
      const commands = p.commands
      if (!Array.isArray(commands)) throw badRequest('commands must be an array')
      state.commands = commands
      return true
    },
    getMyCommands: () => state.commands,
    setChatMenuButton: (p) => {
      state.menuButton = objParam(p, 'menu_button') ?? { type: 'default' }
      return true
    },
    getChatMenuButton: () => state.menuButton,
    setWebhook: (p) => {
      if (typeof p.url !== 'string') throw badRequest('url is required')
      if (p.url === '') {
        state.webhook = null
        return true
      }
      if (!/^https?:\/\//.test(p.url)) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook')
      const secret = typeof p.secret_token === 'string' ? p.secret_token : undefined
      if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) throw badRequest('secret token contains unallowed characters')
      polling?.cancel()
      allowedUpdates = allowedUpdatesParam(p) ?? allowedUpdates
      state.webhook = { url: p.url, ...(secret ? { secret_token: secret } : {}) }
      if (p.drop_pending_updates === true) updates.length = 0
      void deliverToWebhook()
      return true
    },
    deleteWebhook: (p) => {
      state.webhook = null
      if (p.drop_pending_updates === true) updates.length = 0
      return true
    },
    getWebhookInfo: () => ({ url: state.webhook?.url ?? '', has_custom_certificate: false, pending_update_count: updates.length }),
  }

  const state: BotApiState = {
    options,
    botId,
    users: new Map(),
    chats: new Map(),
    members: new Map(),
    blocked: new Set(),
    prepared: new Map(),
    commands: [],
    menuButton: { type: 'default' },
    webhook: null,
    calls: [],
    call: async (method, params) => {
      const fn = methods[method]
      if (!fn) {
        state.calls.push({ method, at: Date.now(), error: '404 Not Found' })
        throw new BotApiError(404, 'Not Found')
      }
      try {
        const result = await fn(params)
        state.calls.push({ method, at: Date.now() })
        return result
      } catch (e) {
        state.calls.push({ method, at: Date.now(), error: e instanceof BotApiError ? `${e.code} ${e.description}` : String(e) })
        throw e
      }
    },
    userWrites: (user, text) => {
      state.knowUser(user)
      state.blocked.delete(user.id)
      const message: ChatMessage = { message_id: nextMessageId++, from: 'user', text, date: now() }
      chatArray(user.id).push(message)
      const entities = text.startsWith('/') ? [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0]!.length }] : undefined
      updates.push({
        update_id: nextUpdateId++,
        message: { message_id: message.message_id, from: telegramUser(user), chat: { id: user.id, type: 'private', first_name: user.first_name }, date: message.date, text, ...(entities ? { entities } : {}) },
      })
      wake()
      return message
    },
    setMember: (userId, member) => {
      const old = state.members.get(userId) ?? 'left'
      const status: MemberStatus = member ? 'member' : 'left'
      state.members.set(userId, status)
      // Telegram tells a bot that administers the chat, when it asked for chat_member updates.
      if (old === status || !wants('chat_member')) return
      const user = telegramUser(state.users.get(userId) ?? { id: userId, first_name: `User ${userId}` })
      updates.push({
        update_id: nextUpdateId++,
        chat_member: {
          chat: { id: COMMUNITY_CHAT_ID, type: 'supergroup', title: options.communityChat.replace(/^@/, ''), username: options.communityChat.replace(/^@/, '') },
          from: user,
          date: now(),
          old_chat_member: { user, status: old },
          new_chat_member: { user, status },
        },
      })
      wake()
    },
    setBlocked: (userId, blocked) => {
      if (state.blocked.has(userId) === blocked) return
      if (blocked) state.blocked.add(userId)
      else state.blocked.delete(userId)
      if (!wants('my_chat_member')) return
      const user = telegramUser(state.users.get(userId) ?? { id: userId, first_name: `User ${userId}` })
      const [before, after] = blocked ? ['member', 'kicked'] : ['kicked', 'member']
      updates.push({
        update_id: nextUpdateId++,
        my_chat_member: {
          chat: { id: userId, type: 'private', first_name: user.first_name },
          from: user,
          date: now(),
          old_chat_member: { user: botUser, status: before, ...(before === 'kicked' ? { until_date: 0 } : {}) },
          new_chat_member: { user: botUser, status: after, ...(after === 'kicked' ? { until_date: 0 } : {}) },
        },
      })
      wake()
    },
    allowWrites: (userId) => void chatArray(userId),
    canWriteTo: (userId) => state.chats.has(userId) && !state.blocked.has(userId),
    knowUser: (user) => {
      const known = state.users.get(user.id)
      state.users.set(user.id, { ...known, ...user })
    },
    chatOf: (userId, after = 0) => (state.chats.get(userId) ?? []).filter((m) => m.message_id > after),
    close: () => polling?.cancel(),
  }
  return state
}

const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = []
  let size = 0
  for await (const c of req) {
    size += (c as Buffer).length
    if (size > 1024 * 1024) throw new BotApiError(413, 'Request Entity Too Large')
    chunks.push(c as Buffer)
  }
  const raw = Buffer.concat(chunks).toString('utf8')
  const query = Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams)
  if (raw.trim() === '') return query
  const type = req.headers['content-type'] ?? ''
  if (type.includes('application/json')) {
    try {
      return { ...query, ...(JSON.parse(raw) as Record<string, unknown>) }
    } catch {
      throw badRequest("can't parse JSON")
    }
  }
  if (type.includes('application/x-www-form-urlencoded')) return { ...query, ...Object.fromEntries(new URLSearchParams(raw)) }
  throw badRequest('unsupported content type')
}

const BOT_PATH = /^\/bot([^/]+)\/([A-Za-z]+)$/

/** Answers a request when it is a Bot API call (`/bot<token>/<method>`); returns false otherwise. */
export const answerBotApi = async (state: BotApiState, req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
  const m = BOT_PATH.exec(new URL(req.url ?? '/', 'http://x').pathname)
  if (!m) return false
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  try {
    if (m[1] !== state.options.token) throw new BotApiError(401, 'Unauthorized')
    const result = await state.call(m[2]!, await readBody(req))
    send(200, { ok: true, result })
  } catch (e) {
    const err = e instanceof BotApiError ? e : new BotApiError(500, 'Internal Server Error')
    send(err.code, { ok: false, error_code: err.code, description: err.description, ...(err.retryAfter ? { parameters: { retry_after: err.retryAfter } } : {}) })
  }
  return true
}

export interface RunningBotApi {
  readonly url: string
  readonly state: BotApiState
  close(): Promise<void>
}

/** The Bot API alone on a port of its own (a test stack starts it before the backend that calls it). */
export const startBotApiServer = async (state: BotApiState, port = 0): Promise<RunningBotApi> => {
  const server = createServer((req, res) => {
    void answerBotApi(state, req, res).then((answered) => {
      if (answered) return
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"ok":false,"error_code":404,"description":"Not Found"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        state.close()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
