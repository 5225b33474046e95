import { DEFAULT_PAGE, DEFAULT_PAGE_LIMIT } from '../../core/domain/constants.ts'
import type { HttpRequest, HttpResponse } from '../../core/ports/http-transport.port.ts'
import { fetchAnswer } from '../shared/fetch-answer.ts'
import type { PrefetchedAnswers } from '../shared/fetch-http-transport.ts'
import type { LaunchParams } from './launch-params.ts'

/** The maintenance check, exactly as the core asks for it (no authorisation). */
export const MAINTENANCE_REQUEST: HttpRequest = { method: 'GET', path: '/maintenance/' }
/** The signed-in user, exactly as the core asks for it with the auth_token cookie's token. */
export const meRequest = (bearer: string): HttpRequest => ({ method: 'GET', path: '/user/me', bearer })
/**
 * What the dashboard's first paint shows besides the user, exactly as the core asks for it: the
 * first page of mints and of stakes and the bond plans (the main balance includes the day's accrual
 * of the stakes), and the token's price.
 */
export const dashboardRequests = (bearer: string): HttpRequest[] => [
  { method: 'GET', path: '/mint/', query: { page: DEFAULT_PAGE, limit: DEFAULT_PAGE_LIMIT }, bearer },
  { method: 'GET', path: '/staking/', query: { page: DEFAULT_PAGE, limit: DEFAULT_PAGE_LIMIT }, bearer },
  { method: 'GET', path: '/mint/all-plans', bearer },
  { method: 'GET', path: '/price/current-price', bearer },
]

const SERVICE_UNAVAILABLE = 503

/** The call a request makes: its path, its query (in key order, unset keys left out) and its token. */
const keyOf = (request: HttpRequest): string | null => {
  if (request.method !== 'GET' || request.body !== undefined || request.idempotencyKey) return null
  const query = Object.entries(request.query ?? {})
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&')
  return `${request.path}?${query}\n${request.bearer ?? ''}`
}

/**
 * GET answers started ahead of the core, each handed over once, to the first request that is
 * exactly the same call (path, query, the same bearer token). An answer that did not come (no
 * network) or came as 503 is not handed over: the request is then sent anew, so a /user/me refused
 * because maintenance began, or ended, in between is simply dropped and the core sees the backend
 * as it is now. Every other status is handed over as it came: a 401 goes through the core's
 * refresh and re-registration exactly as if the core had asked.
 */
export class EarlyAnswers implements PrefetchedAnswers {
  /**
   * Each call's answer until it is taken; null once taken, and for a call the core made before any
   * answer to it was started (it is not started after).
   */
  private readonly pending = new Map<string, Promise<HttpResponse | null> | null>()

  /**
   * `later`, if given, hands each answer over in a task of its own (EarlyRequestsOptions.later). An
   * early answer is often there before the core asks, and the core's handling of it (the decode,
   * the state it changes, the next request) would otherwise run on in the task that asked: a
   * returning user's maintenance check, sign-in, bonds and price made one long task.
   */
  constructor(private readonly later?: (run: () => void) => void) {}

  /** Starts `request` with `send` and keeps its answer for the first matching `take`. */
  start(request: HttpRequest, send: (request: HttpRequest) => Promise<HttpResponse>): void {
    const key = keyOf(request)
    if (key === null || this.pending.has(key)) return
    const answer = send(request).then(
      (res) => (res.status === SERVICE_UNAVAILABLE ? null : res),
      () => null,
    )
    this.pending.set(key, answer)
  }

  take(request: HttpRequest): Promise<HttpResponse | null> | null {
    const key = keyOf(request)
    if (key === null) return null
    const answer = this.pending.get(key)
    this.pending.set(key, null)
    const { later } = this
    return answer && later ? answer.then((res) => new Promise((handOver) => later(() => handOver(res)))) : (answer ?? null)
  }

  /** What is still waiting to be taken, as `path` (for tests and diagnostics). */
  get waiting(): string[] {
    return [...this.pending].filter(([, answer]) => answer).map(([k]) => k.split('?')[0]!)
  }
}

export interface EarlyRequestsOptions {
  readonly fetch: typeof globalThis.fetch
  /** The API's base URL (adapters/shared/fetch-answer.ts `apiBase`). */
  readonly base: string
  readonly launch: LaunchParams
  /** Reads the auth_token cookie's token, if any (with `later`, in a task of its own). */
  readonly authToken: () => string | null
  /** Reads the Telegram user id the app stored on its last sign-in in this browser, if any. */
  readonly storedUserId: () => string | null
  /**
   * Runs `send` in a task of its own (the browser entry: a zero timeout). Each request after the
   * maintenance check then leaves in its own task rather than all in the entry's: a `fetch` call
   * costs the main thread a few milliseconds, and the entry's evaluation was one long task. The
   * requests are registered in the first of those tasks, where the cookie and the stored user are
   * read too (each read is a synchronous trip to the browser's stores), so the core is handed an
   * answer even if it asks before the request has left; a call the core made before that task is
   * not started again. Each answer is handed to the core in a task of its own too (EarlyAnswers).
   * Without it, every request leaves at once and its answer is handed over as it comes.
   */
  readonly later?: (send: () => void) => void
}

/**
 * The requests that start with the page (spec §4 order kept): the maintenance check always, and
 * `GET /user/me` and what the dashboard shows first (dashboardRequests) when there is an
 * auth_token cookie, the app is launched from Telegram, and the launching user is the one who
 * signed in last (a different user wipes the session instead, so their token is not even sent).
 * Registration is not started here: it is a POST, and it waits for the maintenance answer in the core.
 */
export const startEarlyRequests = (o: EarlyRequestsOptions): EarlyAnswers => {
  const { later } = o
  const answers = new EarlyAnswers(later)
  const send = (request: HttpRequest) => fetchAnswer(o.fetch, o.base, request)
  const sendLater = later ? (request: HttpRequest) => new Promise<void>((ready) => later(ready)).then(() => send(request)) : send
  answers.start(MAINTENANCE_REQUEST, send)
  const startReturning = () => {
    const authToken = o.authToken()
    if (!authToken || !o.launch.initData) return
    const storedUserId = o.storedUserId()
    const launchUser = o.launch.initDataUnsafe.user?.id
    if (storedUserId !== null && launchUser !== undefined && storedUserId !== String(launchUser)) return
    for (const request of [meRequest(authToken), ...dashboardRequests(authToken)]) answers.start(request, sendLater)
  }
  if (later) later(startReturning)
  else startReturning()
  return answers
}
