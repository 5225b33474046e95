import { Composer } from 'grammy'
import { type ChatUser, signInitData } from '../backend.ts'

/** Where the user's membership changed, as POST /api/telegram/chat-member takes it. */
type Chat = 'community' | 'bot'

/**
 * Telegram's `chat_member` (a user joined or left a chat the bot administers: the community) and
 * `my_chat_member` in a private chat (the user blocked or unblocked the bot), told to the backend at
 * once, so a user who leaves the community is not a member until their next sign-in, and one who
 * unblocks the bot gets its messages again. The backend asks getChatMember itself for the community.
 * Telegram sends `chat_member` only to a bot that is an administrator there and asked for it
 * (allowed_updates, bot/run.ts). A user with no AXIOM account is nobody's business here (404).
 */
export const chatMembershipFeature = (origin: string, botToken: string, nowS: () => number = () => Math.floor(Date.now() / 1000)) => {
  const tell = async (user: ChatUser, chat: Chat, status: string) => {
    const res = await fetch(`${origin}/api/telegram/chat-member`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ init_data: signInitData(user, botToken, nowS()), chat, status }),
    })
    if (!res.ok && res.status !== 404) console.error(`bot: the backend refused a ${chat} membership change of ${user.id} (${res.status})`)
  }
  const c = new Composer()
  c.on('chat_member', async (ctx) => {
    const { user, status } = ctx.chatMember.new_chat_member
    if (user.is_bot) return
    await tell(user, 'community', status)
  })
  c.on('my_chat_member', async (ctx) => {
    // In a private chat the one whose status changed is the bot; `from` is the user who (un)blocked it.
    if (ctx.myChatMember.chat.type !== 'private') return
    await tell(ctx.myChatMember.from, 'bot', ctx.myChatMember.new_chat_member.status)
  })
  return c
}
