import { Schema } from 'effect'
import { describe, expect, it } from 'vitest'
import { FarmingActivation, FinancialStats, Mint, MINT_STATUSES, STAKE_STATUSES, Stake, UserData } from '../../../core/index.ts'

const mint = {
  id: 1,
  status: 'active',
  created_at: 1_800_000_000,
  last_updated_at: 1_800_000_100,
  total_amount: '100.5',
  daily_reward: 1,
  hold_bonus: 0.5,
  collective_bonus: '0.25',
  investment_bonus: 0,
  earned_reward: '0',
  max_reward: 30,
  amount_token: 100.5,
  amount_ton: '2.01',
  tariff_days: 30,
}

const decodeMint = Schema.decodeUnknownResult(Mint)

describe('entity schemas (spec §3)', () => {
  it('decode amounts sent as numbers or exact decimal strings', () => {
    const r = decodeMint(mint)
    expect(r._tag).toBe('Success')
    if (r._tag === 'Success') {
      expect(r.success.total_amount).toBe(100.5)
      expect(r.success.amount_ton).toBe(2.01)
    }
  })

  it('tolerate extra fields', () => {
    expect(decodeMint({ ...mint, something_new: true })._tag).toBe('Success')
  })

  it('fail with a decode error that names a missing or ill-typed field', () => {
    const { max_reward: _, ...missing } = mint
    const r1 = decodeMint(missing)
    expect(r1._tag === 'Failure' && r1.failure.message).toMatch(/max_reward/)
    const r2 = decodeMint({ ...mint, tariff_days: 'thirty' })
    expect(r2._tag === 'Failure' && r2.failure.message).toMatch(/tariff_days/)
  })

  it('hold the §4 status sets', () => {
    expect(MINT_STATUSES).toEqual(['pending', 'active', 'canceled', 'completed', 'move_to_staking'])
    expect(STAKE_STATUSES).toEqual(['pending', 'active', 'canceled', 'completed'])
    expect(decodeMint({ ...mint, status: 'frozen' })._tag).toBe('Failure')
    expect(Schema.decodeUnknownResult(Stake)({ ...mint, status: 'move_to_staking' })._tag).toBe('Failure')
  })

  it('decode user data and farming activation results', () => {
    const user = Schema.decodeUnknownSync(UserData)({
      ref: { level: 0 },
      community_participation: false,
      balance_token: '10',
      task_balance: 0,
      referral_balance: 0,
      hold_bonus: 0,
      investment_bonus: 0,
      collective_bonus: 0,
      ref_code: 'abc',
    })
    expect(user.balance_token).toBe(10)
    const act = Schema.decodeUnknownSync(FarmingActivation)({
      status: 'ACTIVE',
      message: 'Welcome',
      mint_details: { tariff_days: 14, amount_token: '50', amount_ton: '1.2' },
    })
    expect(act.mint_details?.amount_token).toBe(50)
  })

  it('decode the financial stats the backend sends, tolerating fields left out or added, and name an ill-typed one', () => {
    const decodeStats = Schema.decodeUnknownResult(FinancialStats)
    const r = decodeStats({
      total_users: 3,
      total_locked: '202.123456789',
      active_bonds: 2,
      total_ton_raised: '7.26',
      collective_bonus: '0.1',
      something_new: 'x',
    })
    expect(r._tag === 'Success' && r.success).toEqual({
      total_users: 3,
      total_locked: 202.123456789,
      active_bonds: 2,
      total_ton_raised: 7.26,
      collective_bonus: 0.1,
    })
    expect(decodeStats({})._tag).toBe('Success')
    const bad = decodeStats({ total_withdrawn: 'lots' })
    expect(bad._tag === 'Failure' && bad.failure.message).toMatch(/total_withdrawn/)
  })
})

describe('session, paging and wallet schemas (spec §3)', () => {
  it('decode the register body, list paging and a wallet balance in nano-units', async () => {
    const { ListPaging, RegisterRequest, WalletInfo } = await import('../../../core/index.ts')
    expect(Schema.decodeUnknownSync(RegisterRequest)({ init_data: 'x', ref_code: null })).toEqual({ init_data: 'x', ref_code: null })
    expect(Schema.decodeUnknownResult(ListPaging)({ page: 1, size: 10, sort_order: 'sideways' })._tag).toBe('Failure')
    expect(Schema.decodeUnknownSync(WalletInfo)({ address: '0:ab', chain: '-239', balance_nano: '1000000000000000000001' }).balance_nano).toBe(
      1_000_000_000_000_000_000_001n,
    )
  })
})
