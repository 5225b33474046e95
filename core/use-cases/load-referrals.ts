import { Effect } from 'effect'
import { newReferralsBadge } from '../domain/referral-badge.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import { type KeyValueStore, STORAGE_KEYS } from '../ports/key-value-store.port.ts'

/** The referral list and its '+N' badge against the count last seen (spec §2). */
export const loadReferrals = (deps: { readonly api: Pick<AxiomApi, 'referrals'>; readonly storage: KeyValueStore }) =>
  deps.api.referrals().pipe(
    Effect.map((list) => {
      const stored = deps.storage.get(STORAGE_KEYS.lastRefCount)
      return { list, badge: newReferralsBadge(list.length, stored === null ? null : Number(stored)) }
    }),
  )
