import { dottedAtLeast } from '../../../core/domain/dotted-version.ts'
import type {
  BiometryAccessResult,
  BiometryAuthResult,
  BiometryInfoResult,
  DeviceKeyStore,
  PlatformFeatures,
  StorageResult,
} from '../../../core/index.ts'
import { noPlatformFeatures } from '../../../core/ports/platform-features.port.ts'

/** What the user does with Telegram's prompt to let the bot use biometrics. */
export type AccessAnswer = 'allow' | 'deny' | 'no-answer'
/** How the device's check ends: passed, failed (or dismissed: Telegram says failed), or no verdict at all. */
export type CheckOutcome = 'authorized' | 'failed' | 'no-verdict'

/**
 * A phone's Telegram client as the platform's features see it, written from Telegram's docs
 * (core.telegram.org/bots/webapps: BiometricManager from 7.2, SecureStorage from 9.0): biometrics
 * exist on the device or not; access is asked once (asked again, the client answers with the
 * settings as they are, no prompt); the check reports authorized or failed. SecureStorage keeps
 * strings per key. An older client has neither, and is asked nothing. Records every prompt.
 */
export class FakeTelegramDevice implements PlatformFeatures {
  readonly fullscreen = noPlatformFeatures.fullscreen
  readonly insets = noPlatformFeatures.insets
  readonly homeScreen = noPlatformFeatures.homeScreen
  readonly deviceStorage = noPlatformFeatures.deviceStorage
  readonly performanceClass = noPlatformFeatures.performanceClass
  readonly reducedEffects = noPlatformFeatures.reducedEffects

  /** Biometrics on the device (a fingerprint reader, Face ID). */
  hasBiometrics = true
  accessRequested = false
  accessGranted = false
  accessAnswer: AccessAnswer = 'allow'
  checkOutcome: CheckOutcome = 'authorized'
  /** The reasons shown in Telegram's access prompts and in each check, in order. */
  readonly accessPrompts: string[] = []
  readonly checks: string[] = []
  /** Set on an authorized check, to see whether a sale waited for the verdict. */
  onCheck: (() => void) | null = null

  /** SecureStorage's keys and values on this device. */
  readonly secure = new Map<string, string>()
  /** SecureStorage answers every request with this error (Telegram's `secure_storage_failed`). */
  secureFails: string | null = null
  /** Every SecureStorage request, as `get key`, `set key=value`, `remove key`, `clear`. */
  readonly secureRequests: string[] = []

  readonly biometry: PlatformFeatures['biometry']
  readonly secureStorage: DeviceKeyStore

  constructor(readonly version: string) {
    const device = this
    const biometrySupported = dottedAtLeast(version, '7.2')
    const unsupported = { kind: 'unsupported' } as const
    this.biometry = {
      supported: biometrySupported,
      info: async (): Promise<BiometryInfoResult> => (biometrySupported ? { kind: 'info', info: device.info() } : unsupported),
      requestAccess: async (reason: string): Promise<BiometryAccessResult> => {
        if (!biometrySupported) return unsupported
        if (!device.hasBiometrics) return { kind: 'unavailable' }
        if (!device.accessRequested) {
          device.accessPrompts.push(reason)
          if (device.accessAnswer === 'no-answer') return { kind: 'timeout' }
          device.accessRequested = true
          device.accessGranted = device.accessAnswer === 'allow'
        }
        return device.accessGranted ? { kind: 'granted' } : { kind: 'denied' }
      },
      authenticate: async (reason: string): Promise<BiometryAuthResult> => {
        if (!biometrySupported) return unsupported
        if (!device.hasBiometrics) return { kind: 'unavailable' }
        if (!device.accessGranted) return { kind: 'no-access' }
        device.checks.push(reason)
        if (device.checkOutcome === 'no-verdict') return { kind: 'cancelled' }
        if (device.checkOutcome === 'failed') return { kind: 'failed' }
        device.onCheck?.()
        return { kind: 'ok', token: null }
      },
    }
    const storageSupported = dottedAtLeast(version, '9.0')
    const answer = async <T>(request: string, run: () => T): Promise<StorageResult<T>> => {
      if (!storageSupported) return unsupported
      device.secureRequests.push(request)
      if (device.secureFails) return { kind: 'failed', error: device.secureFails }
      return { kind: 'ok', value: run() }
    }
    this.secureStorage = {
      supported: storageSupported,
      get: (key) => answer(`get ${key}`, () => device.secure.get(key) ?? null),
      set: (key, value) => answer(`set ${key}=${value}`, () => void device.secure.set(key, value)),
      remove: (key) => answer(`remove ${key}`, () => void device.secure.delete(key)),
      clear: () => answer('clear', () => device.secure.clear()),
    }
  }

  private info() {
    const available = this.hasBiometrics
    return {
      available,
      type: available ? ('finger' as const) : ('unknown' as const),
      accessRequested: available && this.accessRequested,
      accessGranted: available && this.accessRequested && this.accessGranted,
      deviceId: 'device-1',
      tokenSaved: false,
    }
  }
}
