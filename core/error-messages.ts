import { MAINTENANCE_MSG } from './domain/constants.ts'
import type { AppError } from './errors.ts'

/** TON Connect protocol error codes and what the user reads for each (spec §8). */
export const WALLET_PROTOCOL_MESSAGES: Readonly<Record<number, string>> = {
  0: 'Unknown wallet error',
  1: 'The wallet refused a bad request',
  2: 'The wallet could not find the app manifest',
  3: 'The wallet could not read the app manifest',
  100: 'The wallet does not know this app',
  300: 'Transaction was not sent',
  400: 'The wallet does not support this action',
}

/** A connected wallet the backend would not link to the user because another account has it. */
export const WALLET_BOUND_ELSEWHERE_MESSAGE =
  'This wallet is linked to another AXIOM account, so it was disconnected. Connect a wallet of your own.'
/** A connected wallet whose proof of ownership the backend refused. */
export const WALLET_NOT_VERIFIED_MESSAGE = 'The wallet could not prove it is yours, so it was disconnected. Connect it again.'

type Messages = { readonly [K in AppError['_tag']]: (e: Extract<AppError, { _tag: K }>) => string }

/** The §8 catalogue: the one table from a typed error to the text a user reads. */
export const ERROR_MESSAGES: Messages = {
  ServerFailed: (e) => `Error: ${e.msg}`,
  Unauthorized: (e) => e.msg,
  RequestRejected: (e) => `Error: ${e.msg}`,
  TooManyRequests: (e) => `Error: ${e.msg}`,
  PayloadTooLarge: () => 'Error: File size is too large! Upload a smaller file.',
  UnderMaintenance: () => `Error: ${MAINTENANCE_MSG}`,
  NetworkError: () => 'Error: Network Error! Code: ERR_NETWORK',
  Timeout: () => 'Error: Timeout Error!',
  MalformedResponse: () => 'Error: Unexpected answer from the server',
  InvalidInput: (e) => `Error: ${e.msg}`,
  WalletNotConnected: () => 'Wallet was not connected',
  WalletConnectionDeclined: () => 'Wallet was not connected',
  TransactionNotSent: () => 'Transaction was not sent',
  WalletUnsupported: (e) => `Error: Your wallet can send ${e.maxMessages} message(s) at once, this needs ${e.needed}`,
  WalletProtocolError: (e) => WALLET_PROTOCOL_MESSAGES[e.code] ?? e.message ?? WALLET_PROTOCOL_MESSAGES[0]!,
  WalletNotConnectedToDisconnect: () => 'Wallet is not connected',
  WalletRestoreFailed: () => 'Provider is not restored',
  WalletRestoreAborted: () => 'Connection restoring was aborted',
  TransactionSendingAborted: () => 'Transaction sending was aborted',
  DisconnectAborted: () => 'Disconnect was aborted',
  WalletBoundElsewhere: () => WALLET_BOUND_ELSEWHERE_MESSAGE,
  WalletNotVerified: () => WALLET_NOT_VERIFIED_MESSAGE,
  OutsidePlatform: () => 'Open AXIOM inside Telegram',
}

/** The text a user reads for an error. */
export const userMessage = (e: AppError): string => (ERROR_MESSAGES[e._tag] as (e: AppError) => string)(e)
