import { Data } from 'effect'

/** HTTP 500: the server failed; the message is its own (spec §8). */
export class ServerFailed extends Data.TaggedError('ServerFailed')<{ readonly msg: string }> {}

/** HTTP 401 or 403 (spec §8). */
export class Unauthorized extends Data.TaggedError('Unauthorized')<{ readonly status: 401 | 403; readonly msg: string }> {}

/** HTTP 400, 404 or 422: the request was refused with a message the user can read (spec §8). */
export class RequestRejected extends Data.TaggedError('RequestRejected')<{
  readonly status: number
  readonly msg: string
}> {}

/**
 * HTTP 429: the client sent too many requests; the server's msg says when to try again ("Too many
 * requests, try again in 12 s"), and the user reads it as a toast.
 */
export class TooManyRequests extends Data.TaggedError('TooManyRequests')<{ readonly msg: string }> {}

/** HTTP 413 (spec §8). */
export class PayloadTooLarge extends Data.TaggedError('PayloadTooLarge')<{}> {}

/**
 * HTTP 503 with the maintenance message: the backend went under maintenance (spec §4). The app shows
 * its maintenance page instead of an error.
 */
export class UnderMaintenance extends Data.TaggedError('UnderMaintenance')<{}> {}

/** The request never got an answer (spec §8). */
export class NetworkError extends Data.TaggedError('NetworkError')<{ readonly cause?: unknown }> {}

/** The request took longer than the API timeout (spec §8, §9). */
export class Timeout extends Data.TaggedError('Timeout')<{ readonly afterMs: number }> {}

/** The server answered with a body the schema refused. */
export class MalformedResponse extends Data.TaggedError('MalformedResponse')<{
  readonly path: string
  readonly issue: string
}> {}

/** A user input failed a rule before anything was sent. */
export class InvalidInput extends Data.TaggedError('InvalidInput')<{ readonly field: string; readonly msg: string }> {}

/** A wallet action needs a connected wallet (spec §5). */
export class WalletNotConnected extends Data.TaggedError('WalletNotConnected')<{}> {}

/** The user declined to connect the wallet (spec §8). */
export class WalletConnectionDeclined extends Data.TaggedError('WalletConnectionDeclined')<{}> {}

/**
 * The user declined or the wallet failed to sign (spec §8). `declined`: the user's own refusal in the
 * wallet (TON Connect's 300), told at once; any other such failure may hide a payment that reached
 * the chain, so the purchase waits for the watcher's word first (core/use-cases/pay-bond.ts).
 */
export class TransactionNotSent extends Data.TaggedError('TransactionNotSent')<{ readonly reason?: string; readonly declined?: boolean }> {}

/** The wallet device cannot send this many messages in one transaction (spec §5). */
export class WalletUnsupported extends Data.TaggedError('WalletUnsupported')<{
  readonly maxMessages: number
  readonly needed: number
}> {}

/** A TON Connect protocol error with its code (spec §8). */
export class WalletProtocolError extends Data.TaggedError('WalletProtocolError')<{
  readonly code: number
  readonly message?: string
}> {}

/**
 * An attempt to restore the stored wallet connection failed (spec §8 'Provider is not restored').
 * `definite`: the wallet or its bridge refused the stored connection, or it cannot be read, so it
 * will never restore and is removed (spec §4); otherwise it went unanswered (the widget did not
 * load, the bridge was not reached) and restoring tries again.
 */
export class WalletRestoreFailed extends Data.TaggedError('WalletRestoreFailed')<{
  readonly reason?: string
  readonly definite?: boolean
}> {}

/**
 * Restoring was abandoned after spec §4's 12 s (spec §8 'Connection restoring was aborted'): no
 * answer came. The stored connection is kept for the next start.
 */
export class WalletRestoreAborted extends Data.TaggedError('WalletRestoreAborted')<{ readonly reason?: string }> {}

/** The wallet adapter gave up waiting for the wallet's answer to a transaction (spec §8 'Transaction sending was aborted'). */
export class TransactionSendingAborted extends Data.TaggedError('TransactionSendingAborted')<{ readonly reason?: string }> {}

/** The wallet adapter gave up on a disconnect the wallet did not take (spec §8 'Disconnect was aborted'). */
export class DisconnectAborted extends Data.TaggedError('DisconnectAborted')<{ readonly reason?: string }> {}

/** The backend refused to link the wallet to this user: it is linked to another account. The wallet was disconnected. */
export class WalletBoundElsewhere extends Data.TaggedError('WalletBoundElsewhere')<{}> {}

/** The backend did not accept the wallet's proof that it is the user's (`msg` says why). The wallet was disconnected. */
export class WalletNotVerified extends Data.TaggedError('WalletNotVerified')<{ readonly msg: string }> {}

/** Disconnecting a wallet that is not connected (spec §4). */
export class WalletNotConnectedToDisconnect extends Data.TaggedError('WalletNotConnectedToDisconnect')<{}> {}

/** No platform launch data: the app was opened outside the host platform (spec §1). */
export class OutsidePlatform extends Data.TaggedError('OutsidePlatform')<{}> {}

/** Every failure of a product API call. */
export type ApiError =
  | ServerFailed
  | Unauthorized
  | RequestRejected
  | TooManyRequests
  | PayloadTooLarge
  | UnderMaintenance
  | NetworkError
  | Timeout
  | MalformedResponse

export type WalletError =
  | WalletNotConnected
  | WalletConnectionDeclined
  | TransactionNotSent
  | WalletUnsupported
  | WalletProtocolError
  | WalletNotConnectedToDisconnect
  | WalletRestoreFailed
  | WalletRestoreAborted
  | TransactionSendingAborted
  | DisconnectAborted
  | WalletBoundElsewhere
  | WalletNotVerified

export type AppError = ApiError | WalletError | InvalidInput | OutsidePlatform
