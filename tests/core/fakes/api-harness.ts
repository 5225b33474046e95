import { type AxiomApi, type Fallbacks, makeHttpAxiomApi, withErrorPolicy } from '../../../core/index.ts'
import { READS } from '../api/api-calls.ts'
import { FakeHttpTransport } from './fake-http-transport.ts'
import { FakePlatform } from './fake-platform.ts'
import { MemorySessionStore } from './memory-stores.ts'
import { RecordingNotifier } from './recording-notifier.ts'

/** Each read's §8 fallback after a 500, by API call, as the app's use cases have them. */
const API_FALLBACKS = Object.fromEntries(READS.map((c) => [c.name, c.onServerError])) as Fallbacks<AxiomApi>

/**
 * The HTTP API client over a scripted transport, signed in with 'token-1' / 'refresh-1': `raw` as it
 * is, and `api` with the §8 error policy of core/error-policy.ts applied to each call, as the app
 * applies it to each use case.
 */
export const httpApiHarness = (options: { signedIn?: boolean; timeoutMs?: number; onUnderMaintenance?: () => void } = {}) => {
  const http = new FakeHttpTransport()
  const session = new MemorySessionStore(options.signedIn === false ? {} : { auth_token: 'token-1', refresh_token: 'refresh-1' })
  const notifier = new RecordingNotifier()
  const platform = new FakePlatform()
  const raw = makeHttpAxiomApi({ http, session, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) })
  const api = withErrorPolicy(
    raw,
    { notifier, platform, ...(options.onUnderMaintenance ? { onUnderMaintenance: options.onUnderMaintenance } : {}) },
    API_FALLBACKS,
  )
  return { api, raw, http, session, notifier, platform }
}
