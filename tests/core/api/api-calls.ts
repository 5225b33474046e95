import type { Effect } from 'effect'
import { type ApiError, type AxiomApi, type HttpRequest, toId } from '../../../core/index.ts'
import { aFarmingLink, aMint, anOperation, aPlan, aReferral, aStake, aTask, aUser, aWithdrawal } from '../fakes/records.ts'

/** One row per §7 call: how the app makes it, the request that must go out, and a valid answer. */
export interface CallCase {
  readonly name: keyof AxiomApi
  readonly call: (api: AxiomApi) => Effect.Effect<unknown, ApiError>
  readonly request: Omit<HttpRequest, 'bearer' | 'idempotencyKey'>
  /** Whether the Authorization: Bearer header goes out ('either' where the spec is silent). */
  readonly bearer: 'yes' | 'no' | 'either'
  readonly reply: unknown
  /** What a read resolves with when the server fails with a 500 (spec §8); absent for writes. */
  readonly onServerError?: unknown
  /** A background poll: its failures are not shown to the user. */
  readonly quiet?: boolean
}

const page = (items: unknown[]) => ({ items, total: items.length })
const EMPTY = { items: [], total: 0 }
const quote = { amount_token: 100, amount_ton: 1, tariff_days: 30, daily_reward: 1, max_reward: 30, expected_reward: 30 }
const ADDRESS = `0:${'11'.repeat(32)}`
const link = {
  amount: 10,
  days: 30,
  count_activations: 3,
  from_ref_balance: true,
  from_task_balance: false,
  is_multilink: true,
  is_for_me: false,
}

const TON_PROOF_CHECK = {
  address: ADDRESS,
  network: '-239',
  public_key: 'cd'.repeat(32),
  proof: {
    timestamp: 1780000000,
    domain: { lengthBytes: 14, value: 'localhost:5173' },
    payload: 'ab'.repeat(28),
    signature: 'c2lnbmF0dXJl',
    state_init: 'te6cckEBAQEAAgAAAEysuc0=',
  },
}

export const CALLS: ReadonlyArray<CallCase> = [
  {
    name: 'register',
    call: (api) => api.register({ init_data: 'signed-init-data', ref_code: 'FRIEND' }),
    request: { method: 'POST', path: '/auth/register', body: { init_data: 'signed-init-data', ref_code: 'FRIEND' } },
    bearer: 'no',
    reply: { token: 't', refresh: 'r' },
  },
  {
    name: 'refresh',
    call: (api) => api.refresh('refresh-1'),
    request: { method: 'POST', path: '/auth/refresh', body: { refresh_token: 'refresh-1', refresh: 'refresh-1' } },
    bearer: 'either',
    reply: { token: 't', refresh: 'r' },
  },
  { name: 'me', call: (api) => api.me(), request: { method: 'GET', path: '/user/me' }, bearer: 'yes', reply: aUser(), onServerError: null },
  {
    name: 'referrals',
    call: (api) => api.referrals(),
    request: { method: 'GET', path: '/user/referrals', query: { page: 1, limit: 300 } },
    bearer: 'yes',
    reply: page([aReferral(1)]),
    onServerError: EMPTY,
  },
  {
    name: 'shareMessage',
    call: (api) => api.shareMessage(),
    request: { method: 'POST', path: '/user/share-message', body: {} },
    bearer: 'yes',
    reply: { inline_message_id: 'abc' },
  },
  {
    name: 'tonProofPayload',
    call: (api) => api.tonProofPayload(),
    request: { method: 'POST', path: '/wallet/ton-proof/payload', body: {} },
    bearer: 'yes',
    reply: { payload: 'ab'.repeat(28) },
  },
  {
    name: 'bindWallet',
    call: (api) => api.bindWallet(TON_PROOF_CHECK),
    request: { method: 'POST', path: '/wallet/ton-proof/check', body: TON_PROOF_CHECK },
    bearer: 'yes',
    reply: { wallet_address: 'UQARERERERERERERERERERERERERERERERERERERERERERER' },
  },
  {
    name: 'mints',
    call: (api) => api.mints(),
    request: { method: 'GET', path: '/mint/', query: { page: 1, limit: 300 } },
    bearer: 'yes',
    reply: page([aMint()]),
    onServerError: EMPTY,
  },
  {
    name: 'mintPlans',
    call: (api) => api.mintPlans(),
    request: { method: 'GET', path: '/mint/all-plans' },
    bearer: 'yes',
    reply: [aPlan(30)],
    onServerError: [],
  },
  {
    name: 'calculateMint',
    call: (api) => api.calculateMint({ amount: 100, freeze_days: 30 }),
    request: { method: 'GET', path: '/mint/calculate', query: { amount: 100, freeze_days: 30 } },
    bearer: 'yes',
    reply: quote,
    onServerError: null,
  },
  {
    name: 'createMint',
    call: (api) => api.createMint({ amount: 100, days: 30 }),
    request: { method: 'POST', path: '/mint/create', body: { amount: 100, days: 30 } },
    bearer: 'yes',
    reply: { mint: aMint({ status: 'pending' }), payment: { address: ADDRESS, amount_nano: '1000000000', comment: 'c', valid_until: 1 } },
  },
  {
    name: 'cancelMint',
    call: (api) => api.cancelMint(toId(5)),
    request: { method: 'POST', path: '/mint/5/cancel', body: {} },
    bearer: 'yes',
    reply: aMint({ id: 5, status: 'canceled' }),
  },
  {
    name: 'calculateStake',
    call: (api) => api.calculateStake({ staking_id: toId(5) }),
    request: { method: 'GET', path: '/staking/calculate', query: { staking_id: 5 } },
    bearer: 'yes',
    reply: { staking_id: 5, total_amount: 100, daily_reward: 0.9, hold_bonus: 0, collective_bonus: 0.1, investment_bonus: 0, max_reward: 30, tariff_days: 30 },
    onServerError: null,
  },
  {
    name: 'stakes',
    call: (api) => api.stakes(),
    request: { method: 'GET', path: '/staking/', query: { page: 1, limit: 300 } },
    bearer: 'yes',
    reply: page([aStake()]),
    onServerError: EMPTY,
  },
  {
    name: 'createStake',
    call: (api) => api.createStake({ mint_id: toId(5) }),
    request: { method: 'POST', path: '/staking/create', body: { mint_id: 5 } },
    bearer: 'yes',
    reply: aStake({ status: 'pending' }),
  },
  {
    name: 'farmingPlans',
    call: (api) => api.farmingPlans({ from_ref_balance: false, from_task_balance: false }),
    request: { method: 'GET', path: '/farming/plans', query: { from_ref_balance: false, from_task_balance: false } },
    bearer: 'yes',
    reply: [{ days: 30, is_active: true }],
    onServerError: [],
  },
  {
    name: 'farmingLinks',
    call: (api) => api.farmingLinks(),
    request: { method: 'GET', path: '/farming/', query: { page: 1, limit: 300 } },
    bearer: 'yes',
    reply: page([aFarmingLink()]),
    onServerError: EMPTY,
  },
  {
    name: 'calculateFarming',
    call: (api) => api.calculateFarming({ amount: 10, freeze_days: 30, from_ref_balance: false, from_task_balance: false }),
    request: { method: 'GET', path: '/farming/calculate', query: { amount: 10, freeze_days: 30, from_ref_balance: false, from_task_balance: false } },
    bearer: 'yes',
    reply: { ...quote, available: 100 },
    onServerError: null,
  },
  {
    name: 'createFarmingLink',
    call: (api) => api.createFarmingLink(link),
    request: { method: 'POST', path: '/farming/create', body: link },
    bearer: 'yes',
    reply: aFarmingLink(link),
  },
  {
    name: 'cancelFarmingLink',
    call: (api) => api.cancelFarmingLink(toId(9)),
    request: { method: 'POST', path: '/farming/9/cancel', body: {} },
    bearer: 'yes',
    reply: aFarmingLink({ id: 9, status: 'revoked' }),
  },
  {
    name: 'farmingActivationStatus',
    call: (api) => api.farmingActivationStatus({ activation_code: 'CODE1234' }),
    request: { method: 'GET', path: '/farming/activation-status', query: { activation_code: 'CODE1234' } },
    bearer: 'yes',
    reply: { status: 'ACTIVE', message: 'Enjoy', mint_details: { tariff_days: 30, amount_token: 10, amount_ton: 0.1 } },
    onServerError: null,
  },
  {
    name: 'calculateWithdraw',
    call: (api) => api.calculateWithdraw({ token_amount: 50 }),
    request: { method: 'GET', path: '/withdraw/calculate', query: { token_amount: 50 } },
    bearer: 'yes',
    reply: { token_amount: 50, fee: 1, net_amount: 49 },
    onServerError: null,
  },
  {
    name: 'operationsHistory',
    call: (api) => api.operationsHistory(),
    request: { method: 'GET', path: '/operations/history', query: { page: 1, size: 10, sort_order: 'desc' } },
    bearer: 'yes',
    reply: page([anOperation()]),
    onServerError: EMPTY,
  },
  {
    name: 'withdrawHistory',
    call: (api) => api.withdrawHistory(),
    request: {
      method: 'GET',
      path: '/withdraw/history',
      query: { page: 1, limit: 10, sort_by: 'created_at', sort_order: 'desc' },
    },
    bearer: 'yes',
    reply: page([aWithdrawal()]),
    onServerError: EMPTY,
  },
  {
    name: 'createWithdraw',
    call: (api) => api.createWithdraw({ from_ref_balance: false, token_amount: 10, address: ADDRESS }),
    request: { method: 'POST', path: '/withdraw/create', body: { from_ref_balance: false, token_amount: 10, address: ADDRESS } },
    bearer: 'yes',
    reply: aWithdrawal(),
  },
  {
    name: 'transferFromReferral',
    call: (api) => api.transferFromReferral({ token_amount: 20 }),
    request: { method: 'POST', path: '/withdraw/transfer-from-referral-balance', body: { token_amount: 20 } },
    bearer: 'yes',
    reply: { balance_token: 120, referral_balance: 0 },
  },
  {
    name: 'tasks',
    call: (api) => api.tasks(),
    request: { method: 'GET', path: '/task/list' },
    bearer: 'yes',
    reply: [aTask()],
    onServerError: [],
  },
  {
    name: 'startTask',
    call: (api) => api.startTask({ task_id: toId(7) }),
    request: { method: 'POST', path: '/task/start', body: { task_id: 7 } },
    bearer: 'yes',
    reply: aTask({ status: 'STARTED' }),
  },
  {
    name: 'validateTask',
    call: (api) => api.validateTask({ task_id: toId(7), link: 'https://t.me/axiom/1' }),
    request: { method: 'POST', path: '/task/validate', body: { task_id: 7, link: 'https://t.me/axiom/1' } },
    bearer: 'yes',
    reply: aTask({ status: 'VALIDATED' }),
  },
  {
    name: 'claimTask',
    call: (api) => api.claimTask({ task_id: toId(7) }),
    request: { method: 'POST', path: '/task/claim', body: { task_id: 7 } },
    bearer: 'yes',
    reply: aTask({ status: 'CLAIMED' }),
  },
  {
    name: 'currentPrice',
    call: (api) => api.currentPrice(),
    request: { method: 'GET', path: '/price/current-price' },
    bearer: 'yes',
    reply: { price: 0.01, price_change_24h: 1, price_change_30d: 2 },
    onServerError: null,
  },
  {
    name: 'candles',
    call: (api) => api.candles({ interval: '1h', from_timestamp: 1000, to_timestamp: 2000 }),
    request: { method: 'GET', path: '/price/candles', query: { interval: '1h', from_timestamp: 1000, to_timestamp: 2000 } },
    bearer: 'yes',
    reply: [{ time: 1000, open: 1, high: 2, low: 0.5, close: 1.5 }],
    onServerError: [],
  },
  {
    name: 'financialStats',
    call: (api) => api.financialStats(),
    request: { method: 'GET', path: '/stats/financial' },
    bearer: 'yes',
    reply: { total_users: 3, total_locked: '202', total_ton_raised: '7.26' },
    onServerError: null,
  },
  {
    name: 'maintenance',
    call: (api) => api.maintenance(),
    request: { method: 'GET', path: '/maintenance/' },
    bearer: 'no',
    reply: { detail: 'Maintenance mode is disabled' },
    onServerError: null,
    quiet: true,
  },
]

export const route = (c: CallCase): string => `${c.request.method} ${c.request.path}`
export const READS = CALLS.filter((c) => c.onServerError !== undefined)
export const WRITES = CALLS.filter((c) => c.onServerError === undefined)
