import { versionAtLeast } from '../../core/domain/platform-version.ts'
import type { LaunchData } from '../../core/ports/platform.port.ts'

/**
 * Telegram's web clients (web.telegram.org's A and K, in a browser tab): no Keychain or Keystore
 * behind them, so the refresh token stays in the spec's cookie there.
 */
export const WEB_CLIENTS: ReadonlySet<string> = new Set(['web', 'weba', 'webk'])

/** The first client version with SecureStorage (telegram-features.ts's PLATFORM_DEVICE_STORAGE_VERSION). */
export const SECURE_STORAGE_VERSION = '9.0'

/** Whether this launch may keep its refresh token in SecureStorage: a Telegram user on a 9.0+ client that is not a web one. */
export const mayKeepRefreshTokenSecurely = (launch: Pick<LaunchData, 'userId' | 'platform' | 'version'> | null): boolean =>
  !!launch?.userId && !WEB_CLIENTS.has(launch.platform) && versionAtLeast(launch.version, SECURE_STORAGE_VERSION)
