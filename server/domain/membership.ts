import { GrammyError } from 'grammy'
import type { ChatMember } from 'grammy/types'
import type { ServerContext } from './context.ts'
import { big, getRow, run } from '../db/sql.ts'
import { InvalidInput } from './errors.ts'

/** /user/me asks Telegram again, while the user is not a member, at most this often. */
export const MEMBERSHIP_RECHECK_S = 10
export const NOT_A_MEMBER_MSG = 'Join the community first, then tap Done'

/** getChatMember's answer as membership: member, administrator, creator, or restricted and still a member. */
export const isMemberStatus = (m: ChatMember): boolean =>
  m.status === 'member' || m.status === 'administrator' || m.status === 'creator' || (m.status === 'restricted' && m.is_member)

/** The community chat, as getChatMember takes it: a numeric id or `@username`. */
const chatIdOf = (chat: string): string | number => (/^-?\d+$/.test(chat) ? Number(chat) : chat)

/**
 * Asks Telegram whether the user is in the community and stores the answer in users.community.
 * Returns the value now stored; a failed check (Telegram down, refused, too slow) keeps the last one.
 * Without a community chat (dev) nothing is asked.
 */
export const refreshMembership = async (ctx: ServerContext, userId: bigint): Promise<boolean> => {
  const row = await getRow(ctx.db, 'SELECT telegram_id, community FROM users WHERE id = ?', userId)
  if (!row) return false
  const known = big(row, 'community') !== 0n
  const g = ctx.telegram
  const chat = g?.settings.communityChat
  if (!g || !chat) return known
  g.lastMembershipCheck.set(userId, ctx.now())
  let member: boolean
  try {
    member = isMemberStatus(await g.api.getChatMember(chatIdOf(chat), Number(big(row, 'telegram_id'))))
  } catch (e) {
    // "user not found" (400) is Telegram's answer for someone who never was in the chat.
    if (e instanceof GrammyError && e.error_code === 400 && /user not found|participant_id_invalid/i.test(e.description)) member = false
    else return known
  }
  if (member !== known) await run(ctx.db, 'UPDATE users SET community = ? WHERE id = ?', member ? 1 : 0, userId)
  return member
}

/** /user/me: while the user is not a member, ask again when the last check is MEMBERSHIP_RECHECK_S old. */
export const recheckMembershipIfDue = async (ctx: ServerContext, userId: bigint, community: boolean): Promise<boolean> => {
  const g = ctx.telegram
  if (community || !g?.settings.communityChat) return community
  const last = g.lastMembershipCheck.get(userId)
  if (last !== undefined && ctx.now() - last < MEMBERSHIP_RECHECK_S) return community
  return refreshMembership(ctx, userId)
}

/**
 * Task 1's proof, inside its transaction: with a community chat, the membership Telegram last
 * reported (refreshMembership ran just before); without one (dev), validating makes the user a member.
 */
export const proveCommunity = async (ctx: ServerContext, userId: bigint): Promise<void> => {
  if (!ctx.telegram?.settings.communityChat) {
    await run(ctx.db, 'UPDATE users SET community = 1 WHERE id = ?', userId)
    return
  }
  const row = await getRow(ctx.db, 'SELECT community FROM users WHERE id = ?', userId)
  if (!row || big(row, 'community') === 0n) throw new InvalidInput(NOT_A_MEMBER_MSG)
}
