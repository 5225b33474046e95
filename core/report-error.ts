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

/**
 * Every error reaches the user through here (spec §8: every error triggers an error haptic).
 * An error shown in place (beside the field it concerns) gets the haptic alone: its words are on screen.
 */
export const errorHaptic = (deps: Feedback): void => deps.platform?.haptic('error')

/** An error in words of its own, as spec §8 shows errors: a 3 s toast, and the error haptic. */
export const reportErrorText =
  (deps: Feedback) =>
  (text: string): void => {
    deps.notifier.notify({ kind: 'error', text, durationMs: TOAST_DURATION_MS })
    errorHaptic(deps)
  }

/** Reports an error the way spec §8 asks: its message as a 3 s toast, and the error haptic. */
export const reportError =
  (deps: Feedback) =>
  (error: AppError): void =>
    reportErrorText(deps)(userMessage(error))

/** Reports a use case's failure unless the API client already did (it reports every ApiError). */
export const reportUnlessReported =
  (deps: Feedback) =>
  (error: AppError): void => {
    if (!isApiError(error)) reportError(deps)(error)
  }
