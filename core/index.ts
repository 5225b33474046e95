/**
 * The AXIOM core: the product's domain, rules, ports and use cases, free of any framework.
 * It imports only `effect`. The mini app, the CLI, bots and the reference backend all build on it.
 */

// §9 constants
export * from './domain/constants.ts'

// §3 entities (Effect Schemas) and §4 statuses
export * from './domain/entities/primitives.ts'
export * from './domain/entities/user.ts'
export * from './domain/entities/mint.ts'
export * from './domain/entities/task.ts'
export * from './domain/entities/farming.ts'
export * from './domain/entities/withdraw.ts'
export * from './domain/entities/market.ts'
export * from './domain/entities/session.ts'
export * from './domain/entities/wallet.ts'

// §4 and §5 rules, pure
export {
  rewardAt,
  dailyPercent,
  perDayRate,
  perSecondRate,
  earningPerSecond,
  accruedBetween,
  type DailyTerms,
} from './domain/reward.ts'
export { formatAmount, formatNonZero, truncateDecimal } from './domain/format-amount.ts'
export { CANCEL_PENALTY_PERCENT, type CancelCost, cancelCost } from './domain/bond-cancel.ts'
export { BOND_FEE_RESERVE, coinFromNano, maxBondAmount, type WalletBalance } from './domain/wallet-balance.ts'
export { parseAmountInput, positiveAmount, type AmountInputResult } from './domain/amount-input.ts'
export { pageCount } from './domain/page-count.ts'
export { REFERRAL_TIERS, tierForTurnover, displayedLevel, nextTier, type ReferralTier } from './domain/referral-tiers.ts'
export { friendlyFromRaw, isRawAddress, isFriendlyAddress, isTonAddress, shortAddress } from './domain/address.ts'
export {
  versionAtLeast,
  shareMethod,
  shareLinkUrl,
  linkOpening,
  type LinkOpening,
} from './domain/platform-version.ts'
export { miniAppLink, referralLink, farmingLink, type MiniAppAddress } from './domain/mini-app-links.ts'
export {
  parseStartParam,
  farmStartParam,
  referralCodeOf,
  farmCodeOf,
  FARM_START_PREFIX,
  type StartParam,
} from './domain/start-param.ts'
export {
  keepNewestPending,
  mergeLiveRecord,
  liveMintToMint,
  liveStakeToStake,
  liveRecordNotice,
} from './domain/pending-records.ts'
export { keepUnchanged } from './domain/unchanged-records.ts'
export { countActiveTasks, nextTaskStep, type TaskStep } from './domain/tasks.ts'
export { newReferralsBadge } from './domain/referral-badge.ts'
export { isMaintenanceOff } from './domain/maintenance.ts'
export { authSteps, isDifferentUser, type AuthStep } from './domain/auth-flow.ts'
export { shouldRefetchOnVisible } from './domain/visibility.ts'
export { socketReconnectPolicy, socketSendRetryPolicy, socketTokenRetryPolicy } from './domain/reconnect-policy.ts'
export { activePlansByDays } from './domain/bond-plans.ts'
export { farmCodeFlagKey, farmCodeFromQuery, isFarmCode } from './domain/farm-code.ts'

// §8 errors and their messages
export * from './errors.ts'
export {
  ERROR_MESSAGES,
  WALLET_BOUND_ELSEWHERE_MESSAGE,
  WALLET_NOT_VERIFIED_MESSAGE,
  WALLET_PROTOCOL_MESSAGES,
  userMessage,
} from './error-messages.ts'
export { ENGLISH_NOTICES, noticeDurationMs, noticeEnds, noticeText, renderNotice, type NoticeTable } from './notices.ts'
export { BackgroundReads, errorHaptic, reportError, SERVER_FAILURE_FALLBACKS, ANSWERED_IN_PLACE, isAnsweredInPlace, withErrorPolicy, type ErrorPolicyDeps, type Fallbacks } from './error-policy.ts'

// Ports
export type * from './ports/axiom-api.port.ts'
export type * from './ports/http-transport.port.ts'
export type * from './ports/session-store.port.ts'
export { STORAGE_KEYS, type KeyValueStore } from './ports/key-value-store.port.ts'
export { nowSeconds, type Clock } from './ports/clock.port.ts'
export { noticeKind, type Notice, type NoticeKind, type NoticeTag } from './domain/notice.ts'
export type { Notifier } from './ports/notifier.port.ts'
export type * from './ports/clipboard.port.ts'
export type * from './ports/core-ports.ts'
export type * from './ports/platform.port.ts'
export type * from './ports/chain-reader.port.ts'
export type * from './ports/wallet.port.ts'
export type * from './ports/socket.port.ts'

// The API client and the live sockets
export { makeHttpAxiomApi, errorForStatus, type HttpAxiomApiDeps } from './api/http-axiom-api.ts'
export { decodeLiveEvent, PaymentSignal, type LiveEvent } from './live/live-events.ts'
export {
  openReconnectingSocket,
  SOCKET_AUTH_FAILED_CODE,
  type ReconnectingSocket,
  type SocketStatus,
} from './live/reconnecting-socket.ts'
export { openMainSocket, openCandleSocket, type CandleSocket, type MainSocketDeps } from './live/product-sockets.ts'

// Use cases: every one bound to its ports by `useCases`; the helpers their callers share
export { useCases, type UseCases } from './use-cases/index.ts'
export { authenticate, type AuthOutcome, type AuthenticateDeps } from './use-cases/authenticate.ts'
// The use cases of the bond payment, selling, farming links, tasks and referrals load on their first
// call (core/use-cases/loaded-on-first-call.ts): the barrel names only their types, so that importing
// it does not load their code. Their helpers are imported from their own files.
export type { BuyBondDeps, BuyBondInput, BondPurchase, BuyBondError } from './use-cases/buy-bond.ts'
export type { PaymentWatch, PaymentWord, PayOutcome } from './use-cases/pay-bond.ts'
export type { FarmingLinkRequest } from './use-cases/create-farming-link.ts'
export type { SaleRequest } from './use-cases/sell-tokens.ts'
export { fundingFlags, fundingSourceOf, type FundingSource } from './domain/funding-source.ts'
export { type ConnectWalletDeps } from './use-cases/connect-wallet.ts'
export {
  afterAccess,
  afterCheck,
  biometricStep,
  confirmMoneyMovement,
  type BiometricReasons,
  type BiometricStep,
  type MoneyConfirmation,
} from './use-cases/confirm-money-movement.ts'
export { isUnanswered, UNANSWERED_TAGS } from './unanswered.ts'
export { newIdempotencyKey, Submission } from './submission.ts'
