import type { Api } from 'grammy'
import type { ServerContext } from '../domain/context.ts'
import type { Row } from '../db/engine.ts'
import { allRows, big, getRow, run, str } from '../db/sql.ts'
import { describeFailure, failureOf } from './bot-api.ts'
import { SECURITY_NOTICES, type NoticeKind } from '../domain/outbox.ts'
import { noticeText } from './notice-text.ts'

export { queueNotice, setNotifications, type NoticeKind } from '../domain/outbox.ts'

export interface OutboxSenderOptions {
  /** Messages a second, all instances together (one sender holds the lease); Telegram allows about 30. */
  readonly perSecond: number
  /** Is this instance the sender? (the `telegram-outbox` lease). */
  readonly held: () => boolean
  /** How long an idle sender waits before looking again. */
  readonly idleMs: number
  /** The longest wait before a failed send is tried again. */
  readonly maxBackoffS: number
  /** The mini app's direct link, for each message's button. */
  readonly miniAppLink: string
  /** The monotonic clock the pacing reads and waits on (performance.now and setTimeout by default). */
  readonly clock?: PacingClock
}

/** Milliseconds that only go forward, and a wait on them (which, as Node's timers, may end a little early). */
export interface PacingClock {
  now(): number
  sleep(ms: number): Promise<void>
}

const realClock: PacingClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
}

export interface OutboxSender {
  /** Sends what is due now; resolves with how many were sent (tests and the bench drive it). */
  drain(): Promise<number>
  stop(): Promise<void>
}

const BATCH = 100
/**
 * Sends to a user who has not let the bot write yet, before the row is refused: they are asked right
 * after paying (the app's requestWriteAccess), so the first "payment arrived" may go out before they
 * answer. With the backoff (2, 4, 8, 16, 32 s) that is about a minute.
 */
export const NOT_ALLOWED_TRIES = 6

/**
 * The failed sends after which a user's notice no longer holds their later ones: with the back-off
 * (2, 4, 8, 16 s), about half a minute in order, then the others go ahead of it.
 */
export const HOLD_BEHIND_TRIES = 4

/**
 * Telegram's limit in one chat: about one message a second (bursts above it end in 429s); 50 ms
 * wider, so that arrival jitter keeps two sends a second apart at Telegram too.
 */
export const PER_CHAT_GAP_MS = 1050

/**
 * The one sender: takes due rows in order, paced at `perSecond`. Each row is claimed (pending →
 * sending, committed) before it is sent, and marked sent after: a row is never sent twice, across
 * restarts too; a row a crash left in `sending` is not sent again (marked `uncertain`), as it may
 * have reached the user. A refusal for good (blocked, chat gone) ends the row; an outage or 429
 * leaves it pending for later. One chat gets at most one message a second (PER_CHAT_GAP_MS): a row
 * whose chat was just written to waits while the rows of other chats go ahead, and a chat's rows
 * keep their order, a failed one's back-off included (up to HOLD_BEHIND_TRIES failures).
 */
export const startOutboxSender = (ctx: ServerContext, api: Api, o: OutboxSenderOptions): OutboxSender => {
  // At most perSecond sends in any second (a sliding window of the last perSecond start times, 20 ms
  // wider so that arrival jitter keeps them within it at Telegram too), and no two closer than half
  // the even gap: a slow send is caught up on, never with a burst.
  const WINDOW_MS = 1020
  const window: number[] = []
  const minGapMs = 500 / o.perSecond
  const clock = o.clock ?? realClock
  let stopped = false
  let running: Promise<number> | null = null
  let wasHeld = false
  let timer: NodeJS.Timeout | null = null
  /** When each chat was last written to (clock.now()); entries older than the gap are dropped. */
  const lastInChat = new Map<bigint, number>()
  const chatWaitMs = (chat: bigint) => {
    const last = lastInChat.get(chat)
    return last === undefined ? 0 : Math.max(0, last + PER_CHAT_GAP_MS - clock.now())
  }
  const wroteTo = (chat: bigint) => {
    const now = clock.now()
    if (lastInChat.size > 10_000) for (const [c, at] of lastInChat) if (at <= now - PER_CHAT_GAP_MS) lastInChat.delete(c)
    lastInChat.set(chat, now)
  }

  const pace = async () => {
    for (;;) {
      const now = clock.now()
      while (window.length > 0 && window[0]! <= now - WINDOW_MS) window.shift()
      const last = window.at(-1)
      const waitGap = last === undefined ? 0 : last + minGapMs - now
      const waitWindow = window.length < o.perSecond ? 0 : window[0]! + WINDOW_MS - now
      const wait = Math.max(waitGap, waitWindow)
      if (wait <= 0) {
        window.push(now)
        return
      }
      await clock.sleep(Math.ceil(wait))
    }
  }

  const finish = (id: bigint, state: string, error: string | null = null) =>
    run(ctx.db, 'UPDATE outbox SET state = ?, done_at = ?, last_error = ? WHERE id = ? AND state = ?', state, ctx.now(), error, id, 'sending')

  const sendOne = async (row: Row): Promise<boolean> => {
    const id = big(row, 'id')
    const claimed = await run(ctx.db, "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ? AND state = 'pending'", id)
    if (claimed.changes !== 1) return false
    const user = await getRow(ctx.db, 'SELECT telegram_id, language, notifications, bot_blocked_at FROM users WHERE id = ?', big(row, 'user_id'))
    const kind = str(row, 'kind') as NoticeKind
    // A sale's notice is sent with notifications off too (SECURITY_NOTICES): a thief could turn them off first.
    const muted = !!user && big(user, 'notifications') === 0n && !SECURITY_NOTICES.has(kind)
    if (!user || muted || user.bot_blocked_at !== null) {
      await finish(id, 'skipped', !user ? 'no user' : user.bot_blocked_at !== null ? 'bot blocked' : 'notifications off')
      return false
    }
    const language = user.language === null ? null : str(user, 'language')
    // The keyboard is decided when the message goes: a sale's Cancel button only while the sale still waits.
    const message = noticeText(kind, JSON.parse(str(row, 'payload')) as Record<string, string | number>, language, o.miniAppLink, ctx.now())
    await pace()
    wroteTo(big(user, 'telegram_id'))
    try {
      await api.sendMessage(Number(big(user, 'telegram_id')), message.text, { reply_markup: { inline_keyboard: message.keyboard.map((r) => [...r]) } })
      await finish(id, 'sent')
      return true
    } catch (e) {
      const failure = failureOf(e)
      if (failure === 'blocked') {
        await run(ctx.db, 'UPDATE users SET bot_blocked_at = ? WHERE id = ?', ctx.now(), big(row, 'user_id'))
        await finish(id, 'refused', describeFailure(e))
        return false
      }
      const attempts = Number(big(row, 'attempts')) + 1
      if (failure === 'refused' || (failure === 'not-allowed' && attempts >= NOT_ALLOWED_TRIES)) {
        await finish(id, 'refused', describeFailure(e))
        return false
      }
      // Not sent (Telegram answered with an error, or the request never got an answer, or the user
      // has not let the bot write yet): try again later.
      const backoff = Math.min(o.maxBackoffS, 2 ** Math.min(attempts, 10))
      await run(ctx.db, "UPDATE outbox SET state = 'pending', next_at = ?, last_error = ? WHERE id = ? AND state = 'sending'", ctx.now() + backoff, describeFailure(e), id)
      return false
    }
  }

  const drainOnce = async (): Promise<number> => {
    if (!o.held()) {
      wasHeld = false
      return 0
    }
    // Taking the lease: what the previous sender left in `sending` may have reached the user.
    if (!wasHeld) await run(ctx.db, "UPDATE outbox SET state = 'uncertain', done_at = ? WHERE state = 'sending'", ctx.now())
    wasHeld = true
    let sent = 0
    for (;;) {
      if (stopped || !o.held()) return sent
      const rows = await allRows(
        ctx.db,
        // A row behind an earlier pending one of its user waits for it (its back-off included),
        // unless that one has failed HOLD_BEHIND_TRIES times: one message Telegram keeps refusing
        // must not hold the user's others for ever. So a batch has one row of a user's in order, and
        // a wait for a chat's gap that ends a little early cannot let a later one go first.
        "SELECT o.id, o.user_id, o.kind, o.payload, o.attempts, u.telegram_id FROM outbox o JOIN users u ON u.id = o.user_id " +
          "WHERE o.state = 'pending' AND o.next_at <= ? " +
          "AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.user_id = o.user_id AND e.state = 'pending' AND e.id < o.id AND e.attempts < ?) " +
          'ORDER BY o.id LIMIT ?',
        ctx.now(),
        HOLD_BEHIND_TRIES,
        BATCH,
      )
      if (rows.length === 0) return sent
      // Rows whose chat was written to less than a second ago go round again, after the others.
      let queue = rows
      while (queue.length > 0) {
        const later: Row[] = []
        for (const row of queue) {
          if (stopped || !o.held()) return sent
          if (chatWaitMs(big(row, 'telegram_id')) > 0) later.push(row)
          else if (await sendOne(row)) sent++
        }
        if (later.length === queue.length) await clock.sleep(Math.ceil(Math.min(...later.map((r) => chatWaitMs(big(r, 'telegram_id'))))))
        queue = later
      }
    }
  }

  const drain = () => {
    running ??= drainOnce().finally(() => {
      running = null
    })
    return running
  }

  const loop = () => {
    if (stopped) return
    timer = setTimeout(() => {
      void drain()
        .catch(() => undefined)
        .finally(loop)
    }, o.idleMs)
    timer.unref()
  }
  loop()

  return {
    drain,
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      await running?.catch(() => undefined)
    },
  }
}
