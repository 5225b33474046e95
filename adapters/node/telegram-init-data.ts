import { signData } from '@tma.js/init-data-node'

/**
 * Init data signed the way Telegram signs it (core.telegram.org/bots/webapps, "Validating data
 * received via the Mini App"), for the CLI's development sign-in and the Telegram host emulator:
 * `hash` is @tma.js/init-data-node's signature of the check string (every field as `key=value`,
 * sorted by key, joined by "\n"). Its `sign` is not used because it always adds a `signature`
 * field (empty when there is none), which clients before Bot API 8.0 never send. Written as clients
 * write it: each value with encodeURIComponent, `hash` last.
 */
export const signInitData = (fields: Readonly<Record<string, string>>, botToken: string): string => {
  const checkString = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n')
  const query = Object.entries(fields).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
  return [...query, `hash=${signData(checkString, botToken)}`].join('&')
}
