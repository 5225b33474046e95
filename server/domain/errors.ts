import { COIN } from '../../core/domain/constants.ts'
export const INSUFFICIENT_BALANCE_MSG = 'Insufficient balance'
export const FILE_TOO_LARGE_MSG = 'File size is too large'

/**
 * What the domain refuses, each named as the fact it is (`_tag`). The message is the one a person
 * reads; server/http/error-answers.ts alone decides the HTTP status each fact is answered with.
 */
export abstract class DomainError extends Error {
  abstract readonly _tag: string
}

/** The base of one fact: its tag, and its message from the constructor's arguments (a fixed text, or the caller's). */
const fact = <Tag extends string, Args extends unknown[] = [message: string]>(
  tag: Tag,
  message: (...args: Args) => string = (...args) => String(args[0]),
) =>
  class extends DomainError {
    readonly _tag = tag
    constructor(...args: Args) {
      super(message(...args))
    }
  }

/** The thing asked for does not exist (or is not the asker's). */
export class NotFound extends fact('NotFound', (what: 'User' | 'Bond' | 'Task' | 'Farming link') => `${what} not found`) {}

/** A request without a valid session or Telegram sign-in: the message says what is wrong (expired, revoked, invalid). */
export class NotSignedIn extends fact('NotSignedIn') {}

/** The signed-in user's row is gone (a valid token for a deleted user). */
export class UnknownSessionUser extends fact('UnknownSessionUser', () => 'User not found') {}

/** No user has this Telegram id (the operator's commands). */
export class UnknownTelegramUser extends fact(
  'UnknownTelegramUser',
  (telegramId: string | number | bigint) => `No user with Telegram id ${telegramId}`,
) {}

/** A debit beyond what a balance holds; `detail` says which balance and by how much. */
export class InsufficientBalance extends fact('InsufficientBalance', (detail?: string) =>
  detail ? `${INSUFFICIENT_BALANCE_MSG}: ${detail}` : INSUFFICIENT_BALANCE_MSG,
) {}

export const WELCOME_LOCKED_MSG = 'Welcome tokens and task rewards can be used for bonds but cannot be sold'

/** A sale beyond the unlocked part of balance_token: the rest are welcome tokens, for bonds only. */
export class WelcomeTokensLocked extends fact(
  'WelcomeTokensLocked',
  (sellable: string) => `${WELCOME_LOCKED_MSG}: you can sell up to ${sellable} AXIOM from your main balance`,
) {}

/** A credit would take a balance past the largest amount the ledger holds. */
export class BalanceLimitExceeded extends fact('BalanceLimitExceeded', () => 'The balance would exceed the largest amount the ledger holds') {}

/** A payment for a bond that is no longer waiting for one. */
export class BondNotPending extends fact('BondNotPending', (mintId: bigint, status: string) => `Bond #${mintId} is ${status}, not pending`) {}

/** A bond payment below the TON quoted for it. */
export class Underpaid extends fact('Underpaid', (paid: string, expected: string) => `Payment of ${paid} ${COIN} is below ${expected} ${COIN}`) {}

/** A new bond while the user already has `max` waiting for their payment. */
export class TooManyPendingBonds extends fact(
  'TooManyPendingBonds',
  (max: number) => `You have ${max} bonds waiting for payment: pay or cancel one before creating another`,
) {}

/** A bond or link in a state that cannot be cancelled. */
export class NotCancellable extends fact('NotCancellable', (kind: 'bond' | 'link', status: string) => `A ${status} ${kind} cannot be cancelled`) {}

/** Only an active bond can be staked. */
export class NotStakeable extends fact('NotStakeable', (status: string) => `Only an active bond can be staked; this one is ${status}`) {}

/** The wallet is already bound to another user. */
export class AlreadyBound extends fact('AlreadyBound', () => 'This wallet is already bound to another account') {}

/** A wallet's tonProof over a payload already spent on a binding (a replay). */
export class PayloadAlreadyUsed extends fact('PayloadAlreadyUsed', () => 'Invalid proof: Payload already used') {}

/** A task step out of order (validate before start, claim before validation, claim twice); the message says what comes next. */
export class TaskStepOutOfOrder extends fact('TaskStepOutOfOrder') {}

/** A farming link this user may not activate: a link for its creator only, or one's own shared link. */
export class NotYourLink extends fact('NotYourLink') {}

/** A photo larger than the server takes. */
export class FileTooLarge extends fact('FileTooLarge', () => FILE_TOO_LARGE_MSG) {}

export const PRICE_OUT_OF_DATE_MSG = 'The price is out of date: quotes are paused until it is updated'

/**
 * The recorded price is older than AXIOM_PRICE_MAX_AGE: no bond or sale is quoted or created at it
 * until the operator records a new one (server/domain/recorded-price.ts, quotePrice).
 */
export class PriceOutOfDate extends fact('PriceOutOfDate', () => PRICE_OUT_OF_DATE_MSG) {}

/** Input the domain's rules refuse (a plan that does not exist, a link that does not match its task, …); the message names the field. */
export class InvalidInput extends fact('InvalidInput') {}

/** Every fact the domain refuses with. */
export type DomainFact =
  | NotFound
  | NotSignedIn
  | UnknownSessionUser
  | UnknownTelegramUser
  | InsufficientBalance
  | WelcomeTokensLocked
  | BalanceLimitExceeded
  | BondNotPending
  | Underpaid
  | TooManyPendingBonds
  | NotCancellable
  | NotStakeable
  | AlreadyBound
  | PayloadAlreadyUsed
  | TaskStepOutOfOrder
  | NotYourLink
  | FileTooLarge
  | PriceOutOfDate
  | InvalidInput
