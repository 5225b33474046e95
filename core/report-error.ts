import { TOAST_DURATION_MS } from './domain/constants.ts'
import { userMessage } from './error-messages.ts'
import { type AppError, isApiError } from './errors.ts'
import type { Notifier } from './ports/notifier.port.ts'
import type { Platform } from './ports/platform.port.ts'

/** Where the user is told of an error: a toast, and the haptic engine when there is one. */
export interface Feedback {
  readonly notifier: Notifier
  readonly platform?: Pick<Platform, 'haptic'>
}

/** Reports an error the way spec §8 asks: its message as a 3 s toast, and the error haptic. */
export const reportError =
  (deps: Feedback) =>
  (error: AppError): void => {
    deps.notifier.notify({ kind: 'error', text: userMessage(error), durationMs: TOAST_DURATION_MS })
    deps.platform?.haptic('error')
  }

/** Reports a use case's failure unless the API client already did (it reports every ApiError). */
export const reportUnlessReported =
  (deps: Feedback) =>
  (error: AppError): void => {
    if (!isApiError(error)) reportError(deps)(error)
  }
