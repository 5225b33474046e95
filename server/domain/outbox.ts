import type { ServerContext } from './context.ts'
import { run } from '../db/sql.ts'

/** What the backend tells a user in the bot's chat (docs/deploy.md, "Notifications"). */
export type NoticeKind = 'bond_paid' | 'bond_completed' | 'stake_completed' | 'sale_paid' | 'friend_joined' | 'farming_used'

/**
 * Queues a message to the user in the bot's chat, inside the caller's transaction: it exists
 * exactly when the change it tells about committed. Whether it is sent (notifications on, bot not
 * blocked) is decided when it is sent.
 */
export const queueNotice = async (ctx: ServerContext, userId: bigint, kind: NoticeKind, payload: Readonly<Record<string, string | number>>): Promise<void> => {
  const now = ctx.now()
  await run(ctx.db, 'INSERT INTO outbox (user_id, kind, payload, next_at, created_at) VALUES (?, ?, ?, ?, ?)', userId, kind, JSON.stringify(payload), now, now)
}

/**
 * `/notifications on|off` (POST /api/user/notifications). Turning them on from the bot's chat also
 * clears a recorded block: the user is writing to the bot again, so they unblocked it.
 */
export const setNotifications = async (ctx: ServerContext, userId: bigint, enabled: boolean): Promise<void> => {
  if (enabled) await run(ctx.db, 'UPDATE users SET notifications = 1, bot_blocked_at = NULL WHERE id = ?', userId)
  else await run(ctx.db, 'UPDATE users SET notifications = 0 WHERE id = ?', userId)
}
