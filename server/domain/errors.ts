export const INSUFFICIENT_BALANCE_MSG = 'Insufficient balance'
export const FILE_TOO_LARGE_MSG = 'File size is too large'

/**
 * What the domain refuses, each named as the fact it is. The message is the one a person reads;
 * server/http/error-answers.ts alone decides the HTTP status each fact is answered with.
 */
export abstract class DomainError extends Error {
  abstract readonly fact: string
}

/** The thing asked for does not exist (or is not the asker's). */
export class NotFound extends DomainError {
  readonly fact = 'NotFound'
  constructor(readonly what: 'User' | 'Bond' | 'Task' | 'Farming link') {
    super(`${what} not found`)
  }
}

/** The signed-in user's row is gone (a valid token for a deleted user). */
export class UnknownSessionUser extends DomainError {
  readonly fact = 'UnknownSessionUser'
  constructor() {
    super('User not found')
  }
}

/** No user has this Telegram id (the operator's commands). */
export class UnknownTelegramUser extends DomainError {
  readonly fact = 'UnknownTelegramUser'
  constructor(telegramId: string | number | bigint) {
    super(`No user with Telegram id ${telegramId}`)
  }
}

/** A debit beyond what a balance holds; `detail` says which balance and by how much. */
export class InsufficientBalance extends DomainError {
  readonly fact = 'InsufficientBalance'
  constructor(detail?: string) {
    super(detail ? `${INSUFFICIENT_BALANCE_MSG}: ${detail}` : INSUFFICIENT_BALANCE_MSG)
  }
}

/** A credit would take a balance past the largest amount the ledger holds. */
export class BalanceLimitExceeded extends DomainError {
  readonly fact = 'BalanceLimitExceeded'
  constructor() {
    super('The balance would exceed the largest amount the ledger holds')
  }
}

/** A payment for a bond that is no longer waiting for one. */
export class BondNotPending extends DomainError {
  readonly fact = 'BondNotPending'
  constructor(mintId: bigint, status: string) {
    super(`Bond #${mintId} is ${status}, not pending`)
  }
}

/** A bond payment below the TON quoted for it. */
export class Underpaid extends DomainError {
  readonly fact = 'Underpaid'
  constructor(paid: string, expected: string) {
    super(`Payment of ${paid} TON is below ${expected} TON`)
  }
}

/** A bond or link in a state that cannot be cancelled. */
export class NotCancellable extends DomainError {
  readonly fact = 'NotCancellable'
  constructor(kind: 'bond' | 'link', status: string) {
    super(`A ${status} ${kind} cannot be cancelled`)
  }
}

/** Only an active bond can be staked. */
export class NotStakeable extends DomainError {
  readonly fact = 'NotStakeable'
  constructor(status: string) {
    super(`Only an active bond can be staked; this one is ${status}`)
  }
}

/** The wallet is already bound to another user. */
export class AlreadyBound extends DomainError {
  readonly fact = 'AlreadyBound'
  constructor() {
    super('This wallet is already bound to another account')
  }
}

/** A task step out of order (validate before start, claim before validation, claim twice); the message says what comes next. */
export class TaskStepOutOfOrder extends DomainError {
  readonly fact = 'TaskStepOutOfOrder'
}

/** A farming link this user may not activate: a link for its creator only, or one's own shared link. */
export class NotYourLink extends DomainError {
  readonly fact = 'NotYourLink'
}

/** A photo larger than the server takes. */
export class FileTooLarge extends DomainError {
  readonly fact = 'FileTooLarge'
  constructor() {
    super(FILE_TOO_LARGE_MSG)
  }
}

/** Input the domain's rules refuse (a plan that does not exist, a link that does not match its task, …); the message names the field. */
export class InvalidInput extends DomainError {
  readonly fact = 'InvalidInput'
}
