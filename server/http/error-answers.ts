import { DomainError, type DomainFact } from '../domain/errors.ts'

/** The HTTP status each domain fact is answered with; the body is `{ msg: error.message }`. */
const STATUS: Record<DomainFact['_tag'], number> = {
  NotFound: 404,
  NotSignedIn: 401,
  UnknownSessionUser: 401,
  UnknownTelegramUser: 404,
  InsufficientBalance: 400,
  WelcomeTokensLocked: 400,
  BalanceLimitExceeded: 422,
  BondNotPending: 409,
  Underpaid: 400,
  TooManyPendingBonds: 400,
  NotCancellable: 400,
  NotStakeable: 400,
  AlreadyBound: 409,
  PayloadAlreadyUsed: 400,
  TaskStepOutOfOrder: 409,
  NotYourLink: 403,
  FileTooLarge: 413,
  // A refusal the app shows where the quote would be (core/error-policy.ts, ANSWERED_IN_PLACE), not a 503:
  // the app reads any 503 but maintenance's as a server failure, told as a toast on each keystroke.
  PriceOutOfDate: 409,
  InvalidInput: 422,
}

/** The answer to a refusal of the domain: its status and `{ msg }`; null for any other error. */
export const domainAnswer = (e: unknown): { readonly status: number; readonly msg: string } | null =>
  e instanceof DomainError ? { status: (STATUS as Record<string, number>)[e._tag] ?? 500, msg: e.message } : null
