/**
 * Small persistent values: the platform user id, lastRefCount, a flag per farm code, wallet info.
 * localStorage in the browser; a Map is a complete fake.
 */
export interface KeyValueStore {
  get(key: string): string | null
  set(key: string, value: string): void
  remove(key: string): void
  clear(): void
}

export const STORAGE_KEYS = {
  user: 'user',
  lastRefCount: 'lastRefCount',
  walletInfo: 'wallet',
  /** Set once the user was asked to let the bot write to them (offer-bot-messages.ts): never asked twice. */
  botMessagesOffered: 'botMessagesOffered',
} as const
