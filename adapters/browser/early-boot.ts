import { STORAGE_KEYS } from '../../core/ports/key-value-store.port.ts'
import { apiBase } from '../shared/fetch-answer.ts'
import { readCookie } from './cookie-session-store.ts'
import { type EarlyAnswers, startEarlyRequests } from './early-requests.ts'
import { type LaunchParams, launchParamsOf, pageInitParams } from './launch-params.ts'
import { applyRootStyle, telegramRootStyle } from './telegram-root-style.ts'

/** What the browser entry learns and starts before the rest of the app has downloaded. */
export interface EarlyBoot {
  /** Telegram's launch parameters, read from the URL (no SDK). */
  readonly launch: LaunchParams
  /** The maintenance check and, for a returning user, /user/me, already on their way. */
  readonly answers: EarlyAnswers
}

const storedUser = (): string | null => {
  try {
    return globalThis.localStorage.getItem(STORAGE_KEYS.user)
  } catch {
    return null
  }
}

/**
 * The first thing the entry runs: reads the launch parameters, puts the page in the user's Telegram
 * theme (the root's `--tg-*` properties, as the SDK will set them: telegram-root-style.ts), and
 * starts the requests that do not need the core. Small on purpose (no effect, no SDK): it is in the
 * entry chunk.
 */
export const earlyBoot = (apiOrigin: string): EarlyBoot => {
  const { params, storage } = pageInitParams()
  applyRootStyle(document.documentElement, telegramRootStyle(params, storage))
  const launch = launchParamsOf(params)
  const answers = startEarlyRequests({
    fetch: (input, init) => globalThis.fetch(input, init),
    base: apiBase(apiOrigin),
    launch,
    // Read straight from the cookie (no session store: this runs inlined in the page), in the
    // requests' first task rather than the entry's.
    authToken: () => readCookie(document, 'auth_token'),
    storedUserId: storedUser,
    later: (send) => setTimeout(send, 0),
  })
  return { launch, answers }
}
