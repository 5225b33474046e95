/** What the backend says to a user in Telegram, in one language: its notices, their buttons, and the invitation a user shares. */
import type { NoticeKind } from '../../domain/outbox.ts'

export type Payload = Readonly<Record<string, string | number>>

export interface TelegramWords {
  /** A notice's text from its payload (docs/deploy.md, "Notifications"). */
  readonly notices: { readonly [K in NoticeKind]: (p: Payload) => string }
  /** The button under a sale still waiting its cooling period. */
  readonly cancelSale: string
  /** The button that opens the mini app. */
  readonly openApp: string
  /** The prepared invitation (an inline article) a user shares: its title, its text, its button. */
  readonly invitation: { readonly title: string; readonly text: string; readonly button: string }
}

/** A unix time as the messages write it: `2026-05-28 14:05 UTC` (the bot does not know the user's zone). */
export const utcTime = (unixS: number): string => `${new Date(unixS * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`
