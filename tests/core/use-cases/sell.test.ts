import { Address } from '@ton/core'
import { describe, expect, it } from 'vitest'
import { sellTokens } from '../../../core/use-cases/sell-tokens.ts'
import { useCasesOver } from '../fakes/use-cases.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { aUser, aWithdrawal } from '../fakes/records.ts'
import { failure, succeed } from '../fakes/run.ts'

const RAW = `0:${'11'.repeat(32)}`
const parsed = Address.parseRaw(RAW)
const FRIENDLY_BOUNCEABLE = parsed.toString()
const FRIENDLY_NON_BOUNCEABLE_URLSAFE = parsed.toString({ bounceable: false, urlSafe: true })
const FRIENDLY_TESTNET = parsed.toString({ testOnly: true, urlSafe: false })

describe('selling tokens', () => {
  it.each([
    ['raw', RAW],
    ['raw on the masterchain', `-1:${'AB'.repeat(32)}`],
    ['friendly bounceable', FRIENDLY_BOUNCEABLE],
    ['friendly non-bounceable, url-safe', FRIENDLY_NON_BOUNCEABLE_URLSAFE],
    ['friendly testnet, standard base64', FRIENDLY_TESTNET],
    ['with stray spaces', `  ${FRIENDLY_BOUNCEABLE} `],
  ])('accepts a %s address', async (_, address) => {
    const api = new FakeAxiomApi()

    await succeed(sellTokens({ api })({ amount: 10, address, fromReferral: false }))

    expect(api.callsTo('createWithdraw')[0]!.input).toEqual({ from_ref_balance: false, token_amount: 10, address: address.trim() })
  })

  it.each([
    ['empty', ''],
    ['a workchain other than 0 or -1', `1:${'11'.repeat(32)}`],
    ['a short hex part', `0:${'11'.repeat(31)}`],
    ['two colons', `0:0:${'11'.repeat(31)}`],
    ['a friendly address with a broken checksum', `${FRIENDLY_BOUNCEABLE.slice(0, -2)}AA`],
    ['a plain word', 'my-wallet'],
  ])('refuses %s without a call', async (_, address) => {
    const api = new FakeAxiomApi()

    expect(await failure(sellTokens({ api })({ amount: 10, address, fromReferral: false }))).toMatchObject({
      _tag: 'InvalidInput',
      field: 'address',
    })
    expect(api.calls).toEqual([])
  })

  it('refuses a non-positive amount without a call', async () => {
    const api = new FakeAxiomApi()

    expect(await failure(sellTokens({ api })({ amount: 0, address: RAW, fromReferral: true }))).toMatchObject({
      field: 'token_amount',
    })
    expect(await failure(useCasesOver({ api }).quoteSale(-3))).toMatchObject({ field: 'token_amount' })
    expect(api.calls).toEqual([])
  })

  it('sells from the referral balance when asked, with the idempotency key', async () => {
    const api = new FakeAxiomApi()

    const w = await succeed(sellTokens({ api })({ amount: 5, address: RAW, fromReferral: true }, { idempotencyKey: 'sale-1' }))

    expect(w).toMatchObject({ from_ref_balance: true, token_amount: 5, status: 'pending' })
    expect(api.callsTo('createWithdraw')[0]!.options).toEqual({ idempotencyKey: 'sale-1' })
  })

  it('quotes a sale', async () => {
    const api = new FakeAxiomApi()

    expect(await succeed(useCasesOver({ api }).quoteSale(100))).toMatchObject({ token_amount: 100, net_amount: 99 })
  })

  it('moves referral balance into the main balance', async () => {
    const api = new FakeAxiomApi()
    api.user = aUser({ balance_token: 10, referral_balance: 30 })

    expect(await succeed(useCasesOver({ api }).transferReferralBalance(20))).toEqual({ balance_token: 30, referral_balance: 10 })
    expect(await failure(useCasesOver({ api }).transferReferralBalance(0))).toMatchObject({ _tag: 'InvalidInput' })
    expect(api.callsTo('transferFromReferral')).toHaveLength(1)
  })

  it('pages the withdraw history 10 at a time', async () => {
    const api = new FakeAxiomApi()
    api.withdrawals = Array.from({ length: 25 }, (_, i) => aWithdrawal({ id: i + 1 }))

    const page3 = await succeed(useCasesOver({ api }).loadWithdrawHistory(3))

    expect(api.callsTo('withdrawHistory')[0]!.input).toEqual({ page: 3, limit: 10 })
    expect(page3.items.map((w) => w.id)).toEqual(['21', '22', '23', '24', '25'])
    expect(page3.total).toBe(25)
  })
})
