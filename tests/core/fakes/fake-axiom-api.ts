import { Effect } from 'effect'
import {
  type ApiError,
  type AxiomApi,
  type Candle,
  type CreateOptions,
  type FarmingActivation,
  type FarmingLink,
  type FinancialStats,
  type Id,
  type Mint,
  type MintPlan,
  type Operation,
  type Price,
  type Referral,
  RequestRejected,
  type Stake,
  type Task,
  type TokenPair,
  type TonProofCheckInput,
  type UserData,
  type Withdrawal,
  toId,
} from '../../../core/index.ts'
import { aUser } from './records.ts'

export type ApiMethod = keyof AxiomApi

export interface ApiCall {
  readonly method: ApiMethod
  readonly input: unknown
  readonly options?: CreateOptions
}

const TREASURY = `0:${'ee'.repeat(32)}`
const NEXT_TASK_STATUS = { NEW: 'STARTED', STARTED: 'VALIDATED', VALIDATED: 'CLAIMED', CLAIMED: 'CLAIMED' } as const

const paged = <T>(items: ReadonlyArray<T>, q: { page?: number; limit?: number; size?: number } = {}) => {
  const page = q.page ?? 1
  const limit = q.limit ?? q.size ?? 300
  return { items: items.slice((page - 1) * limit, page * limit), total: items.length }
}

/**
 * The product API held in memory: a small, consistent backend whose state the test sets and reads.
 * Every call is recorded; `failWith` makes a method fail until `recover`.
 */
export class FakeAxiomApi implements AxiomApi {
  readonly calls: ApiCall[] = []
  user: UserData | null = aUser()
  plans: MintPlan[] = []
  mintList: Mint[] = []
  stakeList: Stake[] = []
  links: FarmingLink[] = []
  activations = new Map<string, FarmingActivation>()
  withdrawals: Withdrawal[] = []
  operations: Operation[] = []
  taskList: Task[] = []
  referralList: Referral[] = []
  price: Price = { price: 0.01, price_change_24h: 1.5, price_change_30d: -3 }
  candleList: Candle[] = []
  stats: FinancialStats = { total_users: 3, total_locked: 1000, total_ton_raised: 7.26 }
  maintenanceDetail = 'Maintenance mode is disabled'
  inlineMessageId = 'inline-1'
  /** Refresh tokens the server still honours, and what each one yields. */
  refreshTokens = new Map<string, TokenPair>()
  registered: TokenPair = { token: 'registered-token', refresh: 'registered-refresh' }
  /** The tonProof payload handed out; the wallet bound by bindWallet (its address as sent). */
  tonProofPayloadValue = 'ton-proof-payload-1'
  boundWallet: string | null = null
  private readonly failures = new Map<ApiMethod, ApiError>()
  private nextId = 100

  failWith(method: ApiMethod, error: ApiError): void {
    this.failures.set(method, error)
  }

  recover(method: ApiMethod): void {
    this.failures.delete(method)
  }

  callsTo(method: ApiMethod): ApiCall[] {
    return this.calls.filter((c) => c.method === method)
  }

  private run<A>(method: ApiMethod, input: unknown, f: () => A | ApiError, options?: CreateOptions): Effect.Effect<A, ApiError> {
    return Effect.suspend(() => {
      this.calls.push({ method, input, ...(options ? { options } : {}) })
      const failure = this.failures.get(method)
      if (failure) return Effect.fail(failure)
      const result = f()
      return result instanceof Object && '_tag' in result ? Effect.fail(result as ApiError) : Effect.succeed(result as A)
    })
  }

  private missing = (what: string) => new RequestRejected({ status: 404, msg: `${what} not found` })

  register = (input: { init_data: string; ref_code: string | null }) => this.run('register', input, () => this.registered)
  refresh = (token: string) =>
    this.run('refresh', token, () => this.refreshTokens.get(token) ?? new RequestRejected({ status: 400, msg: 'Invalid refresh token' }))
  me = () => this.run('me', undefined, () => this.user)
  referrals = (q?: { page?: number; limit?: number }) => this.run('referrals', q, () => paged(this.referralList, q))
  shareMessage = () => this.run('shareMessage', undefined, () => ({ inline_message_id: this.inlineMessageId }))
  tonProofPayload = () => this.run('tonProofPayload', undefined, () => ({ payload: this.tonProofPayloadValue }))
  bindWallet = (input: TonProofCheckInput) =>
    this.run('bindWallet', input, () => {
      this.boundWallet = input.address
      if (this.user) this.user = { ...this.user, wallet_address: input.address }
      return { wallet_address: input.address }
    })

  mints = (q?: { page?: number; limit?: number }) => this.run('mints', q, () => paged(this.mintList, q))
  mintPlans = () => this.run('mintPlans', undefined, () => this.plans)
  calculateMint = (input: { amount: number; freeze_days: number }) =>
    this.run('calculateMint', input, () => ({
      amount_token: input.amount,
      amount_ton: input.amount * this.price.price,
      tariff_days: input.freeze_days,
      daily_reward: 1,
      max_reward: input.amount * 0.01 * input.freeze_days,
      expected_reward: input.amount * 0.01 * input.freeze_days,
    }))
  createMint = (input: { amount: number; days: number }, options?: CreateOptions) =>
    this.run(
      'createMint',
      input,
      () => {
        const id = this.nextId++
        const mint: Mint = {
          id: toId(id),
          status: 'pending',
          created_at: 1_700_000_000,
          total_amount: input.amount,
          daily_reward: 1,
          hold_bonus: 0,
          collective_bonus: 0,
          investment_bonus: 0,
          earned_reward: 0,
          max_reward: input.amount * 0.01 * input.days,
          amount_token: input.amount,
          amount_ton: input.amount * this.price.price,
          tariff_days: input.days,
        }
        this.mintList.push(mint)
        return {
          mint,
          payment: {
            address: TREASURY,
            amount_nano: String(Math.round(input.amount * this.price.price * 1e9)),
            comment: `axiom:mint:${id}`,
            valid_until: 1_700_000_060,
          },
        }
      },
      options,
    )
  cancelMint = (id: Id) =>
    this.run('cancelMint', id, () => {
      const mint = this.mintList.find((m) => m.id === id)
      if (!mint) return this.missing('Mint')
      const canceled: Mint = { ...mint, status: 'canceled' }
      this.mintList = this.mintList.map((m) => (m.id === id ? canceled : m))
      return canceled
    })

  calculateStake = (input: { staking_id: Id }) =>
    this.run('calculateStake', input, () => {
      const mint = this.mintList.find((m) => m.id === input.staking_id)
      return mint
        ? { staking_id: mint.id, total_amount: mint.total_amount, daily_reward: 1, max_reward: mint.max_reward, tariff_days: mint.tariff_days }
        : null
    })
  stakes = (q?: { page?: number; limit?: number }) => this.run('stakes', q, () => paged(this.stakeList, q))
  createStake = (input: { mint_id: Id }, options?: CreateOptions) =>
    this.run(
      'createStake',
      input,
      () => {
        const mint = this.mintList.find((m) => m.id === input.mint_id)
        if (!mint) return this.missing('Mint')
        this.mintList = this.mintList.map((m) => (m.id === mint.id ? { ...m, status: 'move_to_staking' } : m))
        const stake: Stake = { ...mint, id: toId(this.nextId++), status: 'pending' }
        this.stakeList.push(stake)
        return stake
      },
      options,
    )

  farmingPlans = (input: { from_ref_balance: boolean; from_task_balance: boolean }) =>
    this.run('farmingPlans', input, () => this.plans.map((p) => ({ days: p.days, is_active: p.is_active })))
  farmingLinks = (q?: { page?: number; limit?: number }) => this.run('farmingLinks', q, () => paged(this.links, q))
  calculateFarming = (input: { amount: number; freeze_days: number }) =>
    this.run('calculateFarming', input, () => ({
      amount_token: input.amount,
      amount_ton: input.amount * this.price.price,
      tariff_days: input.freeze_days,
      daily_reward: 1,
      max_reward: input.amount,
      expected_reward: input.amount,
    }))
  createFarmingLink = (input: Omit<FarmingLink, 'id' | 'activation_code' | 'created_at'>, options?: CreateOptions) =>
    this.run(
      'createFarmingLink',
      input,
      () => {
        const id = this.nextId++
        const link: FarmingLink = { ...input, id: toId(id), activation_code: `CODE${id}`, created_at: 1_700_000_000 }
        this.links.push(link)
        return link
      },
      options,
    )
  cancelFarmingLink = (id: Id) =>
    this.run('cancelFarmingLink', id, () => {
      const link = this.links.find((l) => l.id === id)
      if (!link) return this.missing('Link')
      const revoked: FarmingLink = { ...link, status: 'revoked' }
      this.links = this.links.map((l) => (l.id === id ? revoked : l))
      return revoked
    })
  farmingActivationStatus = (input: { activation_code: string }) =>
    this.run('farmingActivationStatus', input, () => this.activations.get(input.activation_code) ?? this.missing('Link'))

  calculateWithdraw = (input: { token_amount: number }) =>
    this.run('calculateWithdraw', input, () => ({
      token_amount: input.token_amount,
      fee: input.token_amount * 0.01,
      net_amount: input.token_amount * 0.99,
    }))
  operationsHistory = (q?: { page?: number; limit?: number; size?: number }) => this.run('operationsHistory', q, () => paged(this.operations, q))
  withdrawHistory = (q?: { page?: number; limit?: number }) => this.run('withdrawHistory', q, () => paged(this.withdrawals, q))
  createWithdraw = (input: { from_ref_balance: boolean; token_amount: number; address: string }, options?: CreateOptions) =>
    this.run(
      'createWithdraw',
      input,
      () => {
        const w: Withdrawal = { ...input, id: toId(this.nextId++), status: 'pending', created_at: 1_700_000_000 }
        this.withdrawals.unshift(w)
        return w
      },
      options,
    )
  transferFromReferral = (input: { token_amount: number }, options?: CreateOptions) =>
    this.run(
      'transferFromReferral',
      input,
      () => {
        const user = this.user ?? aUser()
        if (input.token_amount > user.referral_balance)
          return new RequestRejected({ status: 400, msg: 'Insufficient referral balance' })
        this.user = {
          ...user,
          balance_token: user.balance_token + input.token_amount,
          referral_balance: user.referral_balance - input.token_amount,
        }
        return { balance_token: this.user.balance_token, referral_balance: this.user.referral_balance }
      },
      options,
    )

  tasks = () => this.run('tasks', undefined, () => this.taskList)
  private step(method: 'startTask' | 'validateTask' | 'claimTask', input: { task_id: Id }) {
    return this.run(method, input, () => {
      const task = this.taskList.find((t) => t.task_id === input.task_id)
      if (!task) return this.missing('Task')
      const next: Task = { ...task, status: NEXT_TASK_STATUS[task.status] }
      this.taskList = this.taskList.map((t) => (t.task_id === task.task_id ? next : t))
      return next
    })
  }
  startTask = (input: { task_id: Id }) => this.step('startTask', input)
  validateTask = (input: { task_id: Id; link?: string; photo?: string }) => this.step('validateTask', input)
  claimTask = (input: { task_id: Id }) => this.step('claimTask', input)

  currentPrice = () => this.run('currentPrice', undefined, () => this.price)
  candles = (input: { interval: string; from_timestamp: number; to_timestamp: number }) =>
    this.run('candles', input, () => this.candleList)
  financialStats = () => this.run('financialStats', undefined, () => this.stats)
  maintenance = () => this.run('maintenance', undefined, () => ({ detail: this.maintenanceDetail }))
}
