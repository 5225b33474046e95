import { describe, expect, it } from 'vitest'
import { confirmMoneyMovement } from '../../../core/index.ts'
import { SellState } from '../../../ui/features/sell/sell-state.ts'
import { FakeTelegramDevice } from '../../core/fakes/fake-telegram-device.ts'
import { stateHarness, toastTexts } from './harness.ts'

const ADDRESS = `0:${'12'.repeat(32)}`
const SALE = { amount: 10, address: ADDRESS, fromReferral: false }
const REASONS = { access: 'Confirm sales and transfers with Face ID / fingerprint', confirm: 'Confirm the sale of 10.00 AXIOM' }

/** The sell view model as the composition root makes it, over a phone's Telegram client of `version`. */
const sellOn = (version: string) => {
  const h = stateHarness()
  const device = new FakeTelegramDevice(version)
  h.platform.featureSet = device
  let refreshed = 0
  const sell = new SellState(h.uc, { refresh: async () => (refreshed++, null) }, confirmMoneyMovement({ platform: h.platform }))
  return { h, device, sell, refreshed: () => refreshed }
}

describe('SellState with the device’s biometric check', () => {
  it('a 7.0 client: the sale and the transfer go as before, nothing asked', async () => {
    const { h, device, sell } = sellOn('7.0')
    expect(await sell.sell(SALE, REASONS)).not.toBeNull()
    expect(await sell.transfer(5, REASONS)).not.toBeNull()
    expect(h.api.callsTo('createWithdraw')).toHaveLength(1)
    expect(h.api.callsTo('transferFromReferral')).toHaveLength(1)
    expect(device.accessPrompts).toEqual([])
    expect(device.checks).toEqual([])
  })

  it('a 9.1 client: the sale is sent only after the check passed', async () => {
    const { h, device, sell, refreshed } = sellOn('9.1')
    let sentBeforeCheck: number | null = null
    device.onCheck = () => (sentBeforeCheck = h.api.callsTo('createWithdraw').length)
    expect(await sell.sell(SALE, REASONS)).not.toBeNull()
    expect(sentBeforeCheck).toBe(0)
    expect(h.api.callsTo('createWithdraw')).toHaveLength(1)
    expect(device.accessPrompts).toEqual([REASONS.access])
    expect(device.checks).toEqual([REASONS.confirm])
    expect(refreshed()).toBe(1)
    expect(sell.checkRefusal).toBeNull()
  })

  it.each([
    ['failed', 'failed'],
    ['no-verdict', 'cancelled'],
  ] as const)('a check that %s sends nothing and says why, with no error toast', async (outcome, why) => {
    const { h, device, sell } = sellOn('9.1')
    device.checkOutcome = outcome
    expect(await sell.sell(SALE, REASONS)).toBeNull()
    expect(await sell.transfer(5, REASONS)).toBeNull()
    expect(h.api.callsTo('createWithdraw')).toEqual([])
    expect(h.api.callsTo('transferFromReferral')).toEqual([])
    expect(sell.checkRefusal).toEqual({ what: 'transfer', why })
    expect(sell.isSaving).toBe(false)
    expect(toastTexts(h)).toEqual([])

    // The user tries again and passes: the refusal is gone and the sale goes, once.
    device.checkOutcome = 'authorized'
    expect(await sell.sell(SALE, REASONS)).not.toBeNull()
    expect(sell.checkRefusal).toBeNull()
    expect(h.api.callsTo('createWithdraw')).toHaveLength(1)
  })

  it('a double tap while the check is up sends one sale', async () => {
    const { h, device, sell } = sellOn('9.1')
    await Promise.all([sell.sell(SALE, REASONS), sell.sell(SALE, REASONS)])
    expect(device.checks).toHaveLength(1)
    expect(h.api.callsTo('createWithdraw')).toHaveLength(1)
  })
})
