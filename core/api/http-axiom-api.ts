import { Duration, Effect, Schema } from 'effect'
import { API_TIMEOUT_MS, MAINTENANCE_MSG } from '../domain/constants.ts'
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
import { wireId } from '../domain/entities/primitives.ts'
import { DEFAULT_PAGE, DEFAULT_PAGE_LIMIT, DEFAULT_SORT_ORDER, HISTORY_PAGE_SIZE, WITHDRAW_HISTORY_SORT_BY } from '../domain/constants.ts'
import {
  type ApiError,
  MalformedResponse,
  NetworkError,
  PayloadTooLarge,
  TooManyRequests,
  RequestRejected,
  ServerFailed,
  Timeout,
  Unauthorized,
  UnderMaintenance,
} from '../errors.ts'
import type { AxiomApi, CreateOptions } from '../ports/axiom-api.port.ts'
import type { HttpRequest, HttpResponse, HttpTransport } from '../ports/http-transport.port.ts'
import type { SessionStore } from '../ports/session-store.port.ts'

export interface HttpAxiomApiDeps {
  readonly http: HttpTransport
  readonly session: SessionStore
  readonly timeoutMs?: number
}

type Auth = 'bearer' | 'none'

interface Operation<S extends Schema.Top> {
  readonly request: Omit<HttpRequest, 'bearer'>
  readonly schema: S
  readonly auth?: Auth
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
  if (res.status === 429) return new TooManyRequests({ msg })
  if (res.status === 503 && msg === MAINTENANCE_MSG) return new UnderMaintenance()
  if (res.status >= 500) return new ServerFailed({ msg })
  return new RequestRejected({ status: res.status, msg })
}

const paging = (q: { page?: number; limit?: number } = {}) => ({
  page: q.page ?? DEFAULT_PAGE,
  limit: q.limit ?? DEFAULT_PAGE_LIMIT,
})

/**
 * The product API over an HTTP transport: bearer auth, the 25 s timeout, one shared token refresh
 * when calls hit 401, schema decoding of every answer, and every failure as a typed §8 error. It
 * tells the user nothing: that is core/error-policy.ts, on the way to the user. What it keeps is the
 * session protocol: a refreshed token pair is stored, and an access token the server refused is
 * dropped (the next sign-in goes on to the refresh token or the init data).
 */
export const makeHttpAxiomApi = (deps: HttpAxiomApiDeps): AxiomApi => {
  const timeoutMs = deps.timeoutMs ?? API_TIMEOUT_MS

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
    // Spec §3: every call but the maintenance check and registration carries the Bearer token; the
    // refresh carries the expired one (the backend reads only the body's refresh token).
    const bearer = deps.session.get('auth_token') ?? undefined
    refreshing ??= Effect.runPromise(
      send({ method: 'POST', path: '/auth/refresh', body: { refresh_token: refreshToken, refresh: refreshToken }, ...(bearer ? { bearer } : {}) }).pipe(
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
          if (e._tag === 'Unauthorized' && !op.noRefresh) deps.session.remove('auth_token')
        }),
      ),
    )

  const get = <S extends Schema.Top>(
    path: string,
    schema: S,
    query?: HttpRequest['query'],
    auth?: Auth,
  ) => call({ request: { method: 'GET', path, ...(query ? { query } : {}) }, schema, ...(auth ? { auth } : {}) })
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
      }),
    me: () => get('/user/me', UserData),
    referrals: (q) => get('/user/referrals', ReferralList, paging(q)),
    shareMessage: () => post('/user/share-message', SharedMessage),
    tonProofPayload: () => post('/wallet/ton-proof/payload', TonProofPayload),
    bindWallet: (body) => post('/wallet/ton-proof/check', WalletBinding, body),

    mints: (q) => get('/mint/', MintList, paging(q)),
    mintPlans: () => get('/mint/all-plans', MintPlanList),
    calculateMint: (q) => get('/mint/calculate', BondQuote, q),
    createMint: (body, o) => create('/mint/create', MintPayment, body, o),
    cancelMint: (id) => post(`/mint/${encodeURIComponent(id)}/cancel`, Mint),

    calculateStake: (q) => get('/staking/calculate', StakeQuote, { staking_id: wireId(q.staking_id) }),
    stakes: (q) => get('/staking/', StakeList, paging(q)),
    createStake: (body, o) => create('/staking/create', Stake, { ...body, mint_id: wireId(body.mint_id) }, o),

    farmingPlans: (q) => get('/farming/plans', FarmingPlanList, q),
    farmingLinks: (q) => get('/farming/', FarmingLinkList, paging(q)),
    calculateFarming: (q) => get('/farming/calculate', FarmingQuote, q),
    createFarmingLink: (body, o) => create('/farming/create', FarmingLink, body, o),
    cancelFarmingLink: (id) => post(`/farming/${encodeURIComponent(id)}/cancel`, FarmingLink),
    farmingActivationStatus: (q) => get('/farming/activation-status', FarmingActivation, q),

    calculateWithdraw: (q) => get('/withdraw/calculate', WithdrawQuote, q),
    // The history list is asked for by page and size, 10 a page (spec §7, §9).
    operationsHistory: (q = {}) =>
      get('/operations/history', OperationHistory, {
        page: q.page ?? DEFAULT_PAGE,
        size: q.size ?? q.limit ?? HISTORY_PAGE_SIZE,
        sort_order: q.sort_order ?? DEFAULT_SORT_ORDER,
      }),
    withdrawHistory: (q = {}) =>
      get('/withdraw/history', WithdrawHistory, {
        page: q.page ?? DEFAULT_PAGE,
        limit: q.limit ?? q.size ?? HISTORY_PAGE_SIZE,
        sort_by: q.sort_by ?? WITHDRAW_HISTORY_SORT_BY,
        sort_order: q.sort_order ?? DEFAULT_SORT_ORDER,
      }),
    createWithdraw: (body, o) => create('/withdraw/create', Withdrawal, body, o),
    transferFromReferral: (body, o) => create('/withdraw/transfer-from-referral-balance', TransferResult, body, o),

    tasks: () => get('/task/list', TaskList),
    startTask: (body) => post('/task/start', Task, { ...body, task_id: wireId(body.task_id) }),
    validateTask: (body) => post('/task/validate', Task, { ...body, task_id: wireId(body.task_id) }),
    claimTask: (body) => post('/task/claim', Task, { ...body, task_id: wireId(body.task_id) }),

    currentPrice: () => get('/price/current-price', Price),
    candles: (q) => get('/price/candles', CandleList, q),
    financialStats: () => get('/stats/financial', FinancialStats),
    maintenance: () => get('/maintenance/', MaintenanceStatus, undefined, 'none'),
  }
}
