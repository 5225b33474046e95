import type { Effect } from 'effect'
import type { FarmingActivation, FarmingLink, FarmingLinkInput, FarmingPlan, FarmingQuote } from '../domain/entities/farming.ts'
import type { Candle, CandleInterval, FinancialStats, Operation, Price } from '../domain/entities/market.ts'
import type { BondQuote, Mint, MintPayment, MintPlan, Stake, StakeQuote } from '../domain/entities/mint.ts'
import type { FarmingLinkId, MintId, PageQuery, SortOrder, TaskId } from '../domain/entities/primitives.ts'
import type { FundingFlags } from '../domain/funding-source.ts'
import type { TokenPair } from '../domain/entities/session.ts'
import type { Task, TaskValidation } from '../domain/entities/task.ts'
import type { Referral, UserData } from '../domain/entities/user.ts'
import type { TonProofCheckInput } from '../domain/entities/wallet.ts'
import type { TransferResult, Withdrawal, WithdrawInput, WithdrawQuote } from '../domain/entities/withdraw.ts'
import type { ApiError } from '../errors.ts'

export interface Page<T> {
  readonly items: ReadonlyArray<T>
  readonly total: number
}

export interface SortedPageQuery extends PageQuery {
  readonly sort_by?: string
  readonly sort_order?: SortOrder
}

type Call<A> = Effect.Effect<A, ApiError>

/** Creates carry an idempotency key: one key, one effect, however often it is sent. */
export interface CreateOptions {
  readonly idempotencyKey?: string
}

/**
 * The product API (spec §7), one method per call. Reads that the server fails with a 500
 * resolve with an empty list (or null) after the error is reported (spec §8).
 */
export interface AxiomApi {
  register(input: { init_data: string; ref_code: string | null }): Call<TokenPair>
  refresh(refreshToken: string): Call<TokenPair>
  me(): Call<UserData | null>
  referrals(q?: PageQuery): Call<Page<Referral>>
  shareMessage(): Call<{ readonly inline_message_id: string }>

  /** A tonProof payload for the signed-in user (single-use, expiring). */
  tonProofPayload(): Call<{ readonly payload: string }>
  /** Verifies the wallet's tonProof and binds the wallet to the user; answers its friendly address. */
  bindWallet(input: TonProofCheckInput): Call<{ readonly wallet_address: string }>

  mints(q?: PageQuery): Call<Page<Mint>>
  mintPlans(): Call<ReadonlyArray<MintPlan>>
  calculateMint(input: { amount: number; freeze_days: number }): Call<BondQuote | null>
  createMint(input: { amount: number; days: number }, options?: CreateOptions): Call<MintPayment>
  cancelMint(id: MintId): Call<Mint>

  /** The terms staking this mint gives (the stake `createStake` then makes). */
  calculateStake(input: { staking_id: MintId }): Call<StakeQuote | null>
  stakes(q?: PageQuery): Call<Page<Stake>>
  createStake(input: { mint_id: MintId }, options?: CreateOptions): Call<Stake>

  /** Plans for a link funded from the referral or task balance by its flag, or the main balance when neither is set. */
  farmingPlans(input: FundingFlags): Call<ReadonlyArray<FarmingPlan>>
  farmingLinks(q?: PageQuery): Call<Page<FarmingLink>>
  calculateFarming(input: { amount: number; freeze_days: number } & Partial<FundingFlags>): Call<FarmingQuote | null>
  createFarmingLink(input: FarmingLinkInput, options?: CreateOptions): Call<FarmingLink>
  cancelFarmingLink(id: FarmingLinkId): Call<FarmingLink>
  farmingActivationStatus(input: { activation_code: string }): Call<FarmingActivation | null>

  calculateWithdraw(input: { token_amount: number }): Call<WithdrawQuote | null>
  operationsHistory(q?: SortedPageQuery): Call<Page<Operation>>
  withdrawHistory(q?: SortedPageQuery): Call<Page<Withdrawal>>
  createWithdraw(input: WithdrawInput, options?: CreateOptions): Call<Withdrawal>
  transferFromReferral(input: { token_amount: number }, options?: CreateOptions): Call<TransferResult>

  tasks(): Call<ReadonlyArray<Task>>
  startTask(input: { task_id: TaskId }): Call<Task>
  validateTask(input: TaskValidation): Call<Task>
  claimTask(input: { task_id: TaskId }): Call<Task>

  currentPrice(): Call<Price | null>
  candles(input: { interval: CandleInterval; from_timestamp: number; to_timestamp: number }): Call<ReadonlyArray<Candle>>
  financialStats(): Call<FinancialStats | null>
  maintenance(): Call<{ readonly detail: string } | null>
}
