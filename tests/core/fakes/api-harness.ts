import { makeHttpAxiomApi } from '../../../core/index.ts'
import { FakeHttpTransport } from './fake-http-transport.ts'
import { FakePlatform } from './fake-platform.ts'
import { MemorySessionStore } from './memory-stores.ts'
import { RecordingNotifier } from './recording-notifier.ts'

/** The HTTP API client over a scripted transport, signed in with 'token-1' / 'refresh-1'. */
export const httpApiHarness = (options: { signedIn?: boolean; timeoutMs?: number; onUnderMaintenance?: () => void } = {}) => {
  const http = new FakeHttpTransport()
  const session = new MemorySessionStore(options.signedIn === false ? {} : { auth_token: 'token-1', refresh_token: 'refresh-1' })
  const notifier = new RecordingNotifier()
  const platform = new FakePlatform()
  const api = makeHttpAxiomApi({
    http,
    session,
    notifier,
    platform,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.onUnderMaintenance ? { onUnderMaintenance: options.onUnderMaintenance } : {}),
  })
  return { api, http, session, notifier, platform }
}
