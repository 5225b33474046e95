import { queueNotice } from './outbox.ts'
import { randomBytes } from 'node:crypto'
import { UnknownSessionUser } from './errors.ts'
import { allRows, big, getRow, insertRow, num, run } from '../db/sql.ts'
import { inTx, type ServerContext } from './context.ts'
import { moveBalance } from './ledger.ts'
import type { UserRow } from './rows.ts'

export interface TelegramUser {
  readonly id: bigint
  readonly name: string
  /** initData's language_code (what the bot and the share message speak), when the client sent one. */
  readonly language?: string | null
}

export const userRow = async (ctx: ServerContext, userId: bigint): Promise<UserRow> => {
  const row = await getRow<UserRow>(ctx.db, 'SELECT * FROM users WHERE id = ?', userId)
  if (!row) throw new UnknownSessionUser()
  return row
}

/**
 * A referral code: 8 base64url characters that begin with a letter or digit. A code that began with
 * "-" read as an option to a command line (`axiom login … --ref -x…`), and one that began with "_"
 * was easy to lose in a start parameter; about 1 code in 32 did.
 */
export const newRefCode = (): string => {
  for (;;) {
    const code = randomBytes(6).toString('base64url')
    if (/^[A-Za-z0-9]/.test(code)) return code
  }
}

/**
 * Finds the user by Telegram id, or creates them: the referrer is linked only here, at first
 * registration, and never to the user themself. An unknown ref_code is ignored, not an error.
 */
/** The account of a Telegram user, or null when they have none. */
export const userIdByTelegram = async (ctx: ServerContext, telegramId: bigint | number | string): Promise<bigint | null> => {
  const row = await getRow(ctx.db, 'SELECT id FROM users WHERE telegram_id = ?', telegramId)
  return row ? big(row, 'id') : null
}

export const registerUser = (ctx: ServerContext, tg: TelegramUser, refCode: string | null): Promise<bigint> =>
  inTx(ctx, async (ctx) => {
    const existing = await getRow(ctx.db, 'SELECT id FROM users WHERE telegram_id = ?', tg.id)
    if (existing) {
      if (tg.language) await run(ctx.db, 'UPDATE users SET language = ? WHERE id = ? AND (language IS NULL OR language <> ?)', tg.language, big(existing, 'id'), tg.language)
      return big(existing, 'id')
    }
    const referrer = refCode ? await getRow(ctx.db, 'SELECT id FROM users WHERE ref_code = ?', refCode) : undefined
    const userId = await insertRow(
      ctx.db,
      'INSERT INTO users (telegram_id, name, ref_code, referrer_id, created_at, language) VALUES (?, ?, ?, ?, ?, ?)',
      tg.id,
      tg.name,
      newRefCode(),
      referrer ? big(referrer, 'id') : null,
      ctx.now(),
      tg.language ?? null,
    )
    if (referrer) await queueNotice(ctx, big(referrer, 'id'), 'friend_joined', { name: tg.name })
    const welcome = ctx.config.welcomeBalanceNano
    if (welcome > 0n)
      await moveBalance(ctx, userId, 'balance_token', welcome, 'welcome', 'Welcome balance', ctx.config.welcomePolicy === 'locked' ? welcome : 0n)
    return userId
  })

/** A user someone invited: their own turnover (their level) and the bond volume they `brought`, in nano-units. */
export type Referral = {
  readonly id: bigint
  readonly name: string
  readonly turnover: bigint
  readonly created_at: bigint
  readonly brought: bigint
}

/** One page of the users a user invited, newest first, and how many there are. */
export const referralsOf = async (ctx: ServerContext, userId: bigint, limit: number, offset: number): Promise<{ rows: Referral[]; total: number }> => {
  const rows = await allRows<Referral>(
    ctx.db,
    `SELECT u.id, u.name, u.turnover, u.created_at,
       (SELECT COALESCE(SUM(m.total_amount), 0) FROM mints m
         WHERE m.user_id = u.id AND m.source = 'ton' AND m.activated_at IS NOT NULL) AS brought
     FROM users u WHERE u.referrer_id = ? ORDER BY u.id DESC LIMIT ? OFFSET ?`,
    userId,
    limit,
    offset,
  )
  const total = (await getRow(ctx.db, 'SELECT COUNT(*) AS n FROM users WHERE referrer_id = ?', userId))!
  return { rows, total: num(total, 'n') }
}
