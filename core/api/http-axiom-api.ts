import { Duration, Effect, Schema } from 'effect'
import { API_TIMEOUT_MS, INVALID_INIT_DATA_MSG, MAINTENANCE_MSG } from '../domain/constants.ts'
import { FarmingActivation, FarmingLink, FarmingLinkList, FarmingPlanList, FarmingQuote } from '../domain/entities/farming.ts'
import {
  CandleList,
  FinancialStats,
  MaintenanceStatus,
  OperationHistory,
  Price,
  SharedMessage,
} from '../domain/entities/market.ts'
import { BondQuote, Mint, MintList, MintPayment, MintPlanList, Stake, StakeList, StakeQuote } from '../domain/entities/mint.ts'
import { ErrorBody, TokenPair } from '../domain/entities/session.ts'
import { Task, TaskList } from '../domain/entities/task.ts'
import { ReferralList, UserData } from '../domain/entities/user.ts'
import { TonProofPayload, WalletBinding } from '../domain/entities/wallet.ts'
import { TransferResult, Withdrawal, WithdrawHistory, WithdrawQuote } from '../domain/entities/withdraw.ts'
import { DEFAULT_PAGE, DEFAULT_PAGE_LIMIT, DEFAULT_SORT_ORDER, HISTORY_PAGE_SIZE, WITHDRAW_HISTORY_SORT_BY } from '../domain/constants.ts'
import {
  type ApiError,
  MalformedResponse,
  NetworkError,
  PayloadTooLarge,
  RequestRejected,
  ServerFailed,
  Timeout,
  Unauthorized,
  UnderMaintenance,
} from '../errors.ts'
import { reportError } from '../report-error.ts'
import type { AxiomApi, CreateOptions, Page } from '../ports/axiom-api.port.ts'
import type { HttpRequest, HttpResponse, HttpTransport } from '../ports/http-transport.port.ts'
import type { Notifier } from '../ports/notifier.port.ts'
import type { Platform } from '../ports/platform.port.ts'
import type { SessionStore } from '../ports/session-store.port.ts'

export interface HttpAxiomApiDeps {
  readonly http: HttpTransport
  readonly session: SessionStore
  readonly notifier: Notifier
  /** Absent in a CLI: nothing to close and no haptics. */
  readonly platform?: Pick<Platform, 'close' | 'haptic'>
  readonly timeoutMs?: number
  /**
   * Told when a call finds the backend under maintenance (503 'We are under maintenance'): the app
   * then shows its maintenance page, and the failure is not toasted. Without it (a CLI) the failure
   * is reported like any other.
   */
  readonly onUnderMaintenance?: () => void
}

type Auth = 'bearer' | 'none'

interface Operation<S extends Schema.Top> {
  readonly request: Omit<HttpRequest, 'bearer'>
  readonly schema: S
  readonly auth?: Auth
  /** What a read resolves with when the server fails with a 500 (spec §8). Writes have none and fail. */
  readonly fallback?: S['Type'] | null
  /** A 401/403 is returned but not shown: a refused refresh token is expected, not news. */
  readonly quietUnauthorized?: boolean
  /** A refusal (400, 404, 409, 422) is returned but not shown: the caller tells the user what it means. */
  readonly quietRejected?: boolean
  /** No failure is shown: a background poll the user did not start. */
  readonly quiet?: boolean
  /** The refresh call itself: a 401 on it ends the session instead of refreshing again. */
  readonly noRefresh?: boolean
}

const messageOf = (body: unknown, status: number): string => {
  const decoded = Schema.decodeUnknownOption(ErrorBody)(body)
  if (decoded._tag === 'Some') {
    const { msg, detail } = decoded.value
    if (msg) return msg
    if (typeof detail === 'string') return detail
    const first: unknown = Array.isArray(detail) ? detail[0] : undefined
    if (first && typeof first === 'object' && typeof (first as { msg?: unknown }).msg === 'string') return (first as { msg: string }).msg
  }
  return `Request failed with status code ${status}`
}

/** Maps a non-2xx answer to the §8 error it stands for. */
export const errorForStatus = (res: HttpResponse): ApiError => {
  const msg = messageOf(res.body, res.status)
  if (res.status === 401 || res.status === 403) return new Unauthorized({ status: res.status, msg })
  if (res.status === 413) return new PayloadTooLarge()
  if (res.status === 503 && msg === MAINTENANCE_MSG) return new UnderMaintenance()
  if (res.status >= 500) return new ServerFailed({ msg })
  return new RequestRejected({ status: res.status, msg })
}

const EMPTY_PAGE: Page<never> = { items: [], total: 0 }
const paging = (q: { page?: number; limit?: number } = {}) => ({
  page: q.page ?? DEFAULT_PAGE,
  limit: q.limit ?? DEFAULT_PAGE_LIMIT,
})

/**
 * The product API over an HTTP transport, with the whole §8 policy: bearer auth, the 25 s timeout,
 * one shared token refresh when calls hit 401, schema decoding of every answer, and every error
 * reported once (toast + error haptic) at this edge.
 */
export const makeHttpAxiomApi = (deps: HttpAxiomApiDeps): AxiomApi => {
  const timeoutMs = deps.timeoutMs ?? API_TIMEOUT_MS
  const report = reportError(deps)

  const send = (req: HttpRequest): Effect.Effect<HttpResponse, NetworkError | Timeout> =>
    deps.http.send(req).pipe(
      Effect.timeoutOrElse({
        duration: Duration.millis(timeoutMs),
        orElse: () => Effect.fail(new Timeout({ afterMs: timeoutMs })),
      }),
    )

  let refreshing: Promise<boolean> | null = null
  /** One refresh for every call that hit 401 meanwhile; a failed refresh clears the refresh token. */
  const refreshOnce = Effect.suspend(() => {
    const refreshToken = deps.session.get('refresh_token')
    if (!refreshToken) return Effect.succeed(false)
    refreshing ??= Effect.runPromise(
      send({ method: 'POST', path: '/auth/refresh', body: { refresh_token: refreshToken, refresh: refreshToken } }).pipe(
        Effect.flatMap((res) =>
          res.status >= 200 && res.status < 300
            ? Schema.decodeUnknownEffect(TokenPair)(res.body).pipe(Effect.map((p) => p as TokenPair | null))
            : Effect.succeed(null),
        ),
        Effect.catch(() => Effect.succeed(null)),
        Effect.map((pair) => {
          if (!pair) {
            deps.session.remove('refresh_token')
            return false
          }
          deps.session.set('auth_token', pair.token)
          deps.session.set('refresh_token', pair.refresh)
          return true
        }),
      ),
    ).finally(() => {
      refreshing = null
    })
    const pending = refreshing
    return Effect.promise(() => pending)
  })

  const attempt = <S extends Schema.Top>(op: Operation<S>) => {
    const bearer = op.auth === 'none' ? undefined : (deps.session.get('auth_token') ?? undefined)
    return send({ ...op.request, ...(bearer ? { bearer } : {}) })
  }

  const decode = <S extends Schema.Top>(op: Operation<S>, res: HttpResponse) =>
    (Schema.decodeUnknownEffect(op.schema as unknown as Schema.Codec<S['Type'], unknown>)(res.body) as Effect.Effect<
      S['Type'],
      Schema.SchemaError
    >).pipe(
      Effect.mapError((e) => new MalformedResponse({ path: op.request.path, issue: e.message })),
    )

  const call = <S extends Schema.Top>(op: Operation<S>): Effect.Effect<S['Type'], ApiError> =>
    Effect.gen(function* () {
      const usedToken = deps.session.get('auth_token')
      let res = yield* attempt(op)
      if (res.status === 401 && op.auth !== 'none' && !op.noRefresh) {
        // A token that changed meanwhile was refreshed by another call: retry with it, no second refresh.
        const refreshed = deps.session.get('auth_token') !== usedToken || (yield* refreshOnce)
        if (refreshed) res = yield* attempt(op)
      }
      if (res.status >= 200 && res.status < 300) return yield* decode(op, res)
      return yield* Effect.fail(errorForStatus(res))
    }).pipe(
      Effect.tapError((e) =>
        Effect.sync(() => {
          if (e._tag === 'UnderMaintenance' && deps.onUnderMaintenance) return deps.onUnderMaintenance()
          if (op.quiet) return
          if ((e._tag === 'Unauthorized' && op.quietUnauthorized) || (e._tag === 'RequestRejected' && op.quietRejected)) return
          if (e._tag === 'Unauthorized') {
            deps.session.remove('auth_token')
            if (e.msg === INVALID_INIT_DATA_MSG) deps.platform?.close()
          }
          report(e)
        }),
      ),
      Effect.catchTag('ServerFailed', (e) =>
        op.fallback !== undefined ? Effect.succeed(op.fallback as S['Type']) : Effect.fail(e),
      ),
    )

  const get = <S extends Schema.Top>(
    path: string,
    schema: S,
    fallback: S['Type'] | null,
    query?: HttpRequest['query'],
    auth?: Auth,
  ) => call({ request: { method: 'GET', path, ...(query ? { query } : {}) }, schema, fallback, ...(auth ? { auth } : {}) })
  const post = <S extends Schema.Top>(path: string, schema: S, body?: unknown, auth?: Auth) =>
    call({ request: { method: 'POST', path, body: body ?? {} }, schema, ...(auth ? { auth } : {}) })
  const create = <S extends Schema.Top>(path: string, schema: S, body: unknown, options?: CreateOptions) =>
    call({
      request: { method: 'POST', path, body, ...(options?.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) },
      schema,
    })

  return {
    register: (input) => post('/auth/register', TokenPair, input, 'none'),
    refresh: (refresh) =>
      call({
        request: { method: 'POST', path: '/auth/refresh', body: { refresh_token: refresh, refresh } },
        schema: TokenPair,
        noRefresh: true,
        quietUnauthorized: true,
      }),
    me: () => get('/user/me', UserData, null),
    referrals: () => get('/user/referrals', ReferralList, []),
    shareMessage: () => post('/user/share-message', SharedMessage),
    tonProofPayload: () => post('/wallet/ton-proof/payload', TonProofPayload),
    // A refused bind is told by connectWallet, which also disconnects the wallet.
    bindWallet: (body) =>
      call({ request: { method: 'POST', path: '/wallet/ton-proof/check', body }, schema: WalletBinding, quietRejected: true }),

    mints: (q) => get('/mint/', MintList, EMPTY_PAGE, paging(q)),
    mintPlans: () => get('/mint/all-plans', MintPlanList, []),
    calculateMint: (q) => get('/mint/calculate', BondQuote, null, q),
    createMint: (body, o) => create('/mint/create', MintPayment, body, o),
    cancelMint: (id) => post(`/mint/${encodeURIComponent(String(id))}/cancel`, Mint),

    calculateStake: (q) => get('/staking/calculate', StakeQuote, null, q),
    stakes: (q) => get('/staking/', StakeList, EMPTY_PAGE, paging(q)),
    createStake: (body, o) => create('/staking/create', Stake, body, o),

    farmingPlans: (q) => get('/farming/plans', FarmingPlanList, [], q),
    farmingLinks: (q) => get('/farming/', FarmingLinkList, EMPTY_PAGE, paging(q)),
    calculateFarming: (q) => get('/farming/calculate', FarmingQuote, null, q),
    createFarmingLink: (body, o) => create('/farming/create', FarmingLink, body, o),
    cancelFarmingLink: (id) => post(`/farming/${encodeURIComponent(String(id))}/cancel`, FarmingLink),
    farmingActivationStatus: (q) => get('/farming/activation-status', FarmingActivation, null, q),

    calculateWithdraw: (q) => get('/withdraw/calculate', WithdrawQuote, null, q),
    // The history list is asked for by page and size, 10 a page (spec §7, §9).
    operationsHistory: (q = {}) =>
      get('/operations/history', OperationHistory, EMPTY_PAGE, {
        page: q.page ?? DEFAULT_PAGE,
        size: q.size ?? q.limit ?? HISTORY_PAGE_SIZE,
        sort_order: q.sort_order ?? DEFAULT_SORT_ORDER,
      }),
    withdrawHistory: (q = {}) =>
      get('/withdraw/history', WithdrawHistory, EMPTY_PAGE, {
        page: q.page ?? DEFAULT_PAGE,
        limit: q.limit ?? q.size ?? HISTORY_PAGE_SIZE,
        sort_by: q.sort_by ?? WITHDRAW_HISTORY_SORT_BY,
        sort_order: q.sort_order ?? DEFAULT_SORT_ORDER,
      }),
    createWithdraw: (body, o) => create('/withdraw/create', Withdrawal, body, o),
    transferFromReferral: (body, o) => create('/withdraw/transfer-from-referral-balance', TransferResult, body, o),

    tasks: () => get('/task/list', TaskList, []),
    startTask: (body) => post('/task/start', Task, body),
    validateTask: (body) => post('/task/validate', Task, body),
    claimTask: (body) => post('/task/claim', Task, body),

    currentPrice: () => get('/price/current-price', Price, null),
    candles: (q) => get('/price/candles', CandleList, [], q),
    financialStats: () => get('/stats/financial', FinancialStats, null),
    maintenance: () =>
      call({ request: { method: 'GET', path: '/maintenance/' }, schema: MaintenanceStatus, fallback: null, auth: 'none', quiet: true }),
  }
}
