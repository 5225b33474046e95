import {
  PLATFORM_DEFAULT_VERSION,
  PLATFORM_NATIVE_SHARE_VERSION,
  PLATFORM_NATIVE_TELEGRAM_LINK_VERSION,
  PLATFORM_SHORT_LINK_HOST,
} from './constants.ts'
import { dottedAtLeast } from './dotted-version.ts'

/** True when the dotted `version` (the platform's default when absent) is at least `min` ('8.0' ≥ '6.1'; '10.0' ≥ '9.9'). */
export const versionAtLeast = (version: string | undefined, min: string): boolean => dottedAtLeast(version || PLATFORM_DEFAULT_VERSION, min)

/** How to share the referral link (spec §5): natively from 8.0, else through the share-link URL. */
export const shareMethod = (version: string | undefined): 'native' | 'share-url' =>
  versionAtLeast(version, PLATFORM_NATIVE_SHARE_VERSION) ? 'native' : 'share-url'

/** The platform's share-link URL for a fallback share. */
export const shareLinkUrl = (url: string, text: string): string =>
  `https://${PLATFORM_SHORT_LINK_HOST}/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`

export type LinkOpening = 'platform-native' | 'external' | 'rejected'

/**
 * How a link may be opened (spec §5): only http(s) URLs; links on the platform's short-link
 * host open natively from client 6.1, older clients open them as external links.
 */
export const linkOpening = (url: string, version: string | undefined): LinkOpening => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'rejected'
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'rejected'
  if (parsed.hostname === PLATFORM_SHORT_LINK_HOST) {
    return versionAtLeast(version, PLATFORM_NATIVE_TELEGRAM_LINK_VERSION) ? 'platform-native' : 'external'
  }
  return 'external'
}
