import { Effect } from 'effect'
import { DEFAULT_PAGE_LIMIT } from '../domain/constants.ts'
import { newReferralsBadge } from '../domain/referral-badge.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import { type KeyValueStore, STORAGE_KEYS } from '../ports/key-value-store.port.ts'

/**
 * One page of the referral list (newest first, DEFAULT_PAGE_LIMIT a page), how many there are, and
 * the '+N' badge of the total against the count last seen (spec §2).
 */
export const loadReferrals = (deps: { readonly api: Pick<AxiomApi, 'referrals'>; readonly storage: KeyValueStore }, page = 1) =>
  deps.api.referrals({ page, limit: DEFAULT_PAGE_LIMIT }).pipe(
    Effect.map(({ items, total }) => {
      const stored = deps.storage.get(STORAGE_KEYS.lastRefCount)
      return { list: items, total, page, limit: DEFAULT_PAGE_LIMIT, badge: newReferralsBadge(total, stored === null ? null : Number(stored)) }
    }),
  )
