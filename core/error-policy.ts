import { Effect } from 'effect'
import { DEFAULT_PAGE_LIMIT, INVALID_INIT_DATA_MSG } from './domain/constants.ts'
import type { Page } from './ports/axiom-api.port.ts'
import type { AppError } from './errors.ts'
import type { Notifier } from './ports/notifier.port.ts'
import type { Platform } from './ports/platform.port.ts'
import type { UseCases } from './use-cases/index.ts'
import { isUnanswered } from './unanswered.ts'

/** Where the §8 policy tells the user of an error. */
export interface ErrorPolicyDeps {
  readonly notifier: Notifier
  /** The haptic engine, and the app to close on 'Invalid WebApp init data'. */
  readonly platform?: Pick<Platform, 'haptic' | 'close'>
  /** A call found the backend under maintenance: the app shows its maintenance page instead of a toast. */
  readonly onUnderMaintenance?: () => void
  /** Refetches nobody asked for: while one is out, a read that gets no answer is not told (see `BackgroundReads`). */
  readonly background?: BackgroundReads
}

/**
 * Refetches the app makes on its own (the one that follows a socket reconnect): the user did not ask,
 * and the app tries again until it succeeds. While one is out, a read (a use case with a §8 fallback)
 * that gets no answer (network error, timeout, 500) is neither told nor replaced by its fallback: it
 * fails, the view model keeps what it shows, and `run` answers false so that the caller tries again.
 * Refusals, 401s and maintenance are told as ever. The mark is per app, not per call: a read the user
 * starts while a background refetch is out is quiet too, and counted as the refetch's.
 */
export class BackgroundReads {
  private out = 0
  private missed = 0

  /** Runs `refetch` quietly; answers whether every read in it came back. */
  async run(refetch: () => Promise<unknown>): Promise<boolean> {
    this.out++
    const before = this.missed
    try {
      await refetch()
    } finally {
      this.out--
    }
    return this.missed === before
  }

  /** Whether a background refetch is out. */
  get active(): boolean {
    return this.out > 0
  }

  /** A read got no answer while a background refetch was out. */
  miss(): void {
    this.missed++
  }
}

/** Every error gives the error haptic (spec §8); one shown in place, beside its field, gets it alone. */
export const errorHaptic = (platform?: Pick<Platform, 'haptic'>): void => platform?.haptic('error')

/**
 * Tells the user of an error as spec §8 asks: an error notice (a 3 s toast), the error haptic, and
 * for 'Invalid WebApp init data' the app closes. Maintenance goes to its page when there is one;
 * OutsidePlatform is a full screen of its own, never a toast.
 */
export const reportError =
  (deps: ErrorPolicyDeps) =>
  (error: AppError): void => {
    if (error._tag === 'UnderMaintenance' && deps.onUnderMaintenance) return deps.onUnderMaintenance()
    if (error._tag === 'OutsidePlatform') return
    deps.notifier.notify({ tag: 'error', error })
    errorHaptic(deps.platform)
    if (error._tag === 'Unauthorized' && error.msg === INVALID_INIT_DATA_MSG) deps.platform?.close()
  }

/**
 * The quotes: a refusal of one (RequestRejected, a 400/404/422 such as "amount must be at least 1")
 * is answered in place, in the summary where the quote would be, while the user types. It is not a
 * toast, nor a haptic on each keystroke. Their other failures (network, timeout, 500) are told as any.
 */
export const ANSWERED_IN_PLACE: ReadonlySet<string> = new Set(['quoteBond', 'quoteStake', 'quoteFarming', 'quoteSale'])

/** Whether the policy leaves this failure of this use case to its view model to show in place. */
export const isAnsweredInPlace = (useCase: string, error: AppError): boolean =>
  error._tag === 'RequestRejected' && ANSWERED_IN_PLACE.has(useCase)

type SuccessOf<F> = F extends (...args: never[]) => Effect.Effect<infer A, infer _E, infer _R> ? A : never
export type Fallbacks<U> = { readonly [K in keyof U]?: SuccessOf<U[K]> }

const EMPTY_PAGE: Page<never> = { items: [], total: 0 }

/**
 * What a read resolves with when the server fails with a 500, after the error is told (spec §8):
 * an empty list, an empty page, or nothing. Writes are not here: they fail, so nothing looks done.
 */
export const SERVER_FAILURE_FALLBACKS: Fallbacks<UseCases> = {
  checkMaintenance: null,
  loadUser: null,
  loadBondPlans: [],
  loadMints: [],
  loadStakes: [],
  loadMintRecords: [],
  loadStakeRecords: [],
  quoteBond: null,
  quoteStake: null,
  loadFarmingPlans: [],
  loadFarmingLinks: [],
  quoteFarming: null,
  checkFarmCode: null,
  quoteSale: null,
  loadWithdrawHistory: EMPTY_PAGE,
  loadOperationsHistory: EMPTY_PAGE,
  loadTasks: [],
  loadReferrals: { list: [], total: 0, page: 1, limit: DEFAULT_PAGE_LIMIT, badge: null },
  loadPrice: null,
  loadCandles: [],
  loadFinancialStats: null,
}

/**
 * The use cases as the app calls them: every failure is reported once, here, on its way to the user
 * (`reportError`), but a quote's refusal, which its screen shows in place (`ANSWERED_IN_PLACE`); and a
 * read the server failed resolves with its fallback. The failure still comes
 * back typed, so a view model decides what it means for its own state, never whether to tell it.
 */
export const withErrorPolicy = <U extends object = UseCases>(
  uc: U,
  deps: ErrorPolicyDeps,
  serverFailureFallbacks: Fallbacks<U> = SERVER_FAILURE_FALLBACKS as Fallbacks<U>,
): U => {
  const report = reportError(deps)
  const fallbacks = serverFailureFallbacks as Record<string, unknown>
  const guarded = Object.entries(uc).map(([name, useCase]) => {
    const guard = (...args: unknown[]) => {
      const result: unknown = (useCase as (...a: unknown[]) => unknown)(...args)
      if (!Effect.isEffect(result)) return result
      const isRead = name in fallbacks
      // Decided when the call starts, so that a refetch that ends meanwhile does not make it loud.
      const quiet = isRead && deps.background?.active === true
      const reported = (result as Effect.Effect<unknown, AppError>).pipe(
        Effect.tapError((e) =>
          Effect.sync(() => {
            if (quiet && isUnanswered(e)) return deps.background?.miss()
            if (!isAnsweredInPlace(name, e)) report(e)
          }),
        ),
      )
      return isRead && !quiet
        ? reported.pipe(Effect.catchTag('ServerFailed', () => Effect.succeed(fallbacks[name])))
        : reported
    }
    return [name, guard] as const
  })
  return Object.fromEntries(guarded) as U
}
