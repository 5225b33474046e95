import { Effect } from 'effect'
import { authSteps, isDifferentUser } from '../domain/auth-flow.ts'
import { parseStartParam, referralCodeOf } from '../domain/start-param.ts'
import { type ApiError, OutsidePlatform } from '../errors.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import { type KeyValueStore, STORAGE_KEYS } from '../ports/key-value-store.port.ts'
import type { Platform } from '../ports/platform.port.ts'
import type { SessionStore } from '../ports/session-store.port.ts'

export interface AuthenticateDeps {
  readonly api: Pick<AxiomApi, 'register' | 'refresh'>
  readonly session: SessionStore
  readonly storage: KeyValueStore
  readonly platform: Pick<Platform, 'launch' | 'reload'>
}

/** 'authenticated', or 'reloading' when a different platform user was found and everything was wiped. */
export type AuthOutcome = 'authenticated' | 'reloading'

/**
 * Signs the user in (spec §4): the auth_token cookie if present, else the refresh token (removed
 * when it fails), else a registration with the platform's init data and, when the start parameter
 * is a referral code, that code as ref_code (a farm code is not one). A different platform user than
 * the stored one wipes storage and cookies and reloads.
 */
export const authenticate = (deps: AuthenticateDeps): Effect.Effect<AuthOutcome, ApiError | OutsidePlatform> =>
  Effect.gen(function* () {
    const launch = deps.platform.launch()
    if (!launch) return yield* Effect.fail(new OutsidePlatform())
    if (isDifferentUser(deps.storage.get(STORAGE_KEYS.user), launch.userId)) {
      deps.storage.clear()
      deps.session.remove('auth_token')
      deps.session.remove('refresh_token')
      deps.platform.reload()
      return 'reloading' as const
    }
    if (launch.userId) deps.storage.set(STORAGE_KEYS.user, launch.userId)

    const refreshToken = deps.session.get('refresh_token')
    for (const step of authSteps({ authToken: !!deps.session.get('auth_token'), refreshToken: !!refreshToken })) {
      if (step === 'use-cookie') return 'authenticated' as const
      if (step === 'refresh' && refreshToken) {
        const refreshed = yield* Effect.result(deps.api.refresh(refreshToken))
        if (refreshed._tag === 'Success') {
          deps.session.set('auth_token', refreshed.success.token)
          deps.session.set('refresh_token', refreshed.success.refresh)
          return 'authenticated' as const
        }
        deps.session.remove('refresh_token')
      }
    }
    const pair = yield* deps.api.register({ init_data: launch.initData, ref_code: referralCodeOf(parseStartParam(launch.startParam)) })
    deps.session.set('auth_token', pair.token)
    deps.session.set('refresh_token', pair.refresh)
    return 'authenticated' as const
  })
