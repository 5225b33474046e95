import { defaultTelegramSettings, DEV_BOT_TOKEN } from '../../server/main.ts'
import { chatMember, ok, startBotApiFake, type BotApiFake } from '../support/bot-api-fake.ts'
import { startTestServer, type TestServer } from './support.ts'

export const COMMUNITY = '@axiom_community'
export const MINI_APP_LINK = 'https://t.me/axiom_dev_bot/app'

/** A Bot API answer, as the fake sends it. */
export type BotApiAnswer = ReturnType<typeof ok>

/**
 * The reference backend with a community chat, talking to a fake Bot API whose getChatMember
 * answers from `status` (per Telegram user id; a user not in it has 'left').
 */
export interface CommunityBackend {
  readonly fake: BotApiFake
  readonly t: TestServer
  readonly status: Map<number, BotApiAnswer>
  /** getChatMember's answer from `status` (registered at start; register it again after replacing it). */
  readonly answerFromStatus: (params: Record<string, unknown>) => BotApiAnswer
  close(): Promise<void>
}

export async function startCommunityBackend(): Promise<CommunityBackend> {
  const status = new Map<number, BotApiAnswer>()
  const answerFromStatus = (p: Record<string, unknown>) => status.get(Number(p.user_id)) ?? ok(chatMember(Number(p.user_id), 'left'))
  const fake = await startBotApiFake(DEV_BOT_TOKEN)
  fake.on('getChatMember', answerFromStatus)
  const t = await startTestServer({
    telegram: { ...defaultTelegramSettings(), apiRoot: fake.url, communityChat: COMMUNITY, miniAppLink: MINI_APP_LINK, requestTimeoutMs: 3_000 },
  })
  return {
    fake,
    t,
    status,
    answerFromStatus,
    async close() {
      await t.close()
      await fake.close()
    },
  }
}
