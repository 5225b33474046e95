import type { KeyValueStore } from '../ports/key-value-store.port.ts'
import { STORAGE_KEYS } from '../ports/key-value-store.port.ts'
import type { Platform } from '../ports/platform.port.ts'

export type BotMessagesOffer = 'allowed' | 'declined' | 'not-asked'

/**
 * After the user's payment has gone out: the bot tells them when the bond is paid and when it
 * completes, but Telegram lets a bot write only to a user who started it or allowed it. A friend who
 * arrived through a link did neither, so Telegram's own prompt asks them (requestWriteAccess), once
 * on this device, and only when the launch does not already say they allow it. Resolves what happened.
 */
export const offerBotMessages =
  (deps: { readonly platform: Platform; readonly storage: KeyValueStore }) =>
  async (): Promise<BotMessagesOffer> => {
    const launch = deps.platform.launch()
    if (!launch || launch.allowsWriteToPm === true || deps.storage.get(STORAGE_KEYS.botMessagesOffered) !== null) return 'not-asked'
    deps.storage.set(STORAGE_KEYS.botMessagesOffered, '1')
    return (await deps.platform.requestWriteAccess()) ? 'allowed' : 'declined'
  }
