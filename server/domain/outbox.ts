import type { ServerContext } from './context.ts'
import { big, getRow, run } from '../db/sql.ts'
import { ownNumberSql } from './rows.ts'

/** What the backend tells a user in the bot's chat (docs/deploy.md, "Notifications"). */
export type NoticeKind = 'bond_paid' | 'bond_completed' | 'stake_completed' | 'sale_created' | 'sale_paid' | 'friend_joined' | 'farming_used'

/**
 * Notices that guard the user's money: sent even with notifications off (`/notifications off` turns
 * off the news, not these), as a stolen session could turn them off before it sells.
 */
export const SECURITY_NOTICES: ReadonlySet<NoticeKind> = new Set(['sale_created'])

/**
 * Queues a message to the user in the bot's chat, inside the caller's transaction: it exists
 * exactly when the change it tells about committed. Whether it is sent (notifications on, bot not
 * blocked) is decided when it is sent.
 */
export const queueNotice = (ctx: ServerContext, userId: bigint, kind: NoticeKind, payload: NoticePayload): Promise<void> =>
  queueNotices(ctx, [{ userId, kind, payload }])

export type NoticePayload = Readonly<Record<string, string | number>>

/** Several notices in one statement (the periodic pass completes up to a batch of positions at once). */
export const queueNotices = async (ctx: ServerContext, notices: ReadonlyArray<{ readonly userId: bigint; readonly kind: NoticeKind; readonly payload: NoticePayload }>): Promise<void> => {
  if (notices.length === 0) return
  const now = ctx.now()
  const values = notices.map(() => '(?, ?, ?, ?, ?)').join(', ')
  await run(ctx.db, `INSERT INTO outbox (user_id, kind, payload, next_at, created_at) VALUES ${values}`, ...notices.flatMap((n) => [n.userId, n.kind, JSON.stringify(n.payload), now, now]))
}

/**
 * `/notifications on|off` (POST /api/user/notifications). Turning them on from the bot's chat also
 * clears a recorded block: the user is writing to the bot again, so they unblocked it.
 */
export const setNotifications = async (ctx: ServerContext, userId: bigint, enabled: boolean): Promise<void> => {
  if (enabled) await run(ctx.db, 'UPDATE users SET notifications = 1, bot_blocked_at = NULL WHERE id = ?', userId)
  else await run(ctx.db, 'UPDATE users SET notifications = 0 WHERE id = ?', userId)
}

/**
 * The user blocked the bot (the bot saw its chat's `my_chat_member` turn `kicked`) or unblocked it:
 * while blocked, their messages are skipped. Unblocking does not turn off-notifications back on.
 */
export const setBotBlocked = async (ctx: ServerContext, userId: bigint, blocked: boolean): Promise<void> => {
  if (blocked) await run(ctx.db, 'UPDATE users SET bot_blocked_at = ? WHERE id = ? AND bot_blocked_at IS NULL', ctx.now(), userId)
  else await run(ctx.db, 'UPDATE users SET bot_blocked_at = NULL WHERE id = ?', userId)
}

/** The number the user knows a bond or stake by (their first is #1), for a notice about it. */
export const ownNumber = async (ctx: ServerContext, table: 'mints' | 'stakes', id: bigint): Promise<number> =>
  Number(big((await getRow(ctx.db, ownNumberSql(table), id))!, 'n'))
