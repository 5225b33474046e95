import { Effect } from 'effect'
import { type MiniAppAddress, referralLink } from '../domain/mini-app-links.ts'
import { shareLinkUrl, shareMethod } from '../domain/platform-version.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import type { Platform } from '../ports/platform.port.ts'

export const INVITE_TEXT = 'Join me on AXIOM: bond, stake and earn.'

/**
 * Invites friends (spec §5): the native share of a prepared message from client 8.0; otherwise,
 * or when that fails, the platform's share-link URL with the referral deep link. A user who closes
 * the native share screen has declined, not met an error: no second share screen follows.
 */
export const inviteFriends =
  (deps: { readonly api: Pick<AxiomApi, 'shareMessage'>; readonly platform: Pick<Platform, 'launch' | 'shareMessage' | 'openPlatformLink'> }) =>
  (app: MiniAppAddress, refCode: string) =>
    Effect.gen(function* () {
      const link = referralLink(app, refCode)
      if (shareMethod(deps.platform.launch()?.version) === 'native') {
        const prepared = yield* Effect.result(deps.api.shareMessage())
        if (prepared._tag === 'Success') {
          const shared = yield* Effect.promise(() =>
            deps.platform.shareMessage(prepared.success.inline_message_id).catch(() => 'failed' as const),
          )
          if (shared === 'sent') return 'native' as const
          if (shared === 'declined') return 'declined' as const
        }
      }
      deps.platform.openPlatformLink(shareLinkUrl(link, INVITE_TEXT))
      return 'share-url' as const
    })
