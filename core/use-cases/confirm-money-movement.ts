import type { Platform } from '../ports/platform.port.ts'
import type { BiometryAccessResult, BiometryAuthResult, BiometryInfoResult } from '../ports/platform-features.port.ts'

/** The texts Telegram shows in its prompts, in the user's language (up to 128 characters each). */
export interface BiometricReasons {
  /** Shown once, when the app asks to use the device's biometrics at all. */
  readonly access: string
  /** Shown with each check, saying what it confirms. */
  readonly confirm: string
}

/**
 * Whether money may leave: `go` (checked by the device's biometrics, or `by: 'none'` where there
 * are none to ask: an older client, no biometrics on the device, a user who does not let the app
 * use them), or `stop` with why the device's check did not pass. Nothing is sent on `stop`.
 */
export type MoneyConfirmation =
  | { readonly kind: 'go'; readonly by: 'biometrics' | 'none' }
  | { readonly kind: 'stop'; readonly why: 'failed' | 'cancelled' }

const GO_WITHOUT: MoneyConfirmation = { kind: 'go', by: 'none' }

/** What to do once the client has told its biometric settings. */
export type BiometricStep = 'without' | 'ask-access' | 'authenticate'

/**
 * From the client's biometric settings: nothing to ask without biometrics (an older client, none on
 * the device, a client that did not answer); Telegram's access prompt once, for a user never asked;
 * the check for a user who allowed it; none for a user who declined before (asked once only).
 */
export const biometricStep = (info: BiometryInfoResult): BiometricStep => {
  if (info.kind !== 'info' || !info.info.available) return 'without'
  if (!info.info.accessRequested) return 'ask-access'
  return info.info.accessGranted ? 'authenticate' : 'without'
}

/**
 * The access prompt's answer: allowed, then the check follows; declined (or no biometrics after
 * all), the flow goes on without; no answer at all within the prompt's time is a cancelled check.
 */
export const afterAccess = (answer: BiometryAccessResult): 'authenticate' | MoneyConfirmation => {
  if (answer.kind === 'granted') return 'authenticate'
  if (answer.kind === 'timeout') return { kind: 'stop', why: 'cancelled' }
  return GO_WITHOUT
}

/**
 * The check's verdict: passed, money goes; failed (a wrong face, a dismissed prompt: Telegram reports
 * both as failed) or cancelled (no verdict), it stops. Access withdrawn or biometrics gone between
 * the settings and the check leave nothing to check with: the flow goes on as without them.
 */
export const afterCheck = (result: BiometryAuthResult): MoneyConfirmation => {
  switch (result.kind) {
    case 'ok':
      return { kind: 'go', by: 'biometrics' }
    case 'failed':
      return { kind: 'stop', why: 'failed' }
    case 'cancelled':
      return { kind: 'stop', why: 'cancelled' }
    default:
      return GO_WITHOUT
  }
}

/**
 * Right before a sale or a transfer is sent: where the client has Telegram's BiometricManager (7.2+)
 * and the device has biometrics, the user confirms with them (asked once to allow it, with
 * `reasons.access`). Without them the answer is `go` at once, as before biometrics existed. The
 * platform's features load on first use; if they cannot load there is nothing to ask.
 */
export const confirmMoneyMovement =
  (deps: { readonly platform: Pick<Platform, 'features'> }) =>
  async (reasons: BiometricReasons): Promise<MoneyConfirmation> => {
    let biometry
    try {
      biometry = (await deps.platform.features()).biometry
    } catch {
      return GO_WITHOUT
    }
    if (!biometry.supported) return GO_WITHOUT
    const step = biometricStep(await biometry.info())
    if (step === 'without') return GO_WITHOUT
    if (step === 'ask-access') {
      const next = afterAccess(await biometry.requestAccess(reasons.access))
      if (next !== 'authenticate') return next
    }
    return afterCheck(await biometry.authenticate(reasons.confirm))
  }
