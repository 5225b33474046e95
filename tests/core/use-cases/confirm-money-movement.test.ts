import { describe, expect, it } from 'vitest'
import { confirmMoneyMovement } from '../../../core/use-cases/confirm-money-movement.ts'
import { FakePlatform, launchData } from '../fakes/fake-platform.ts'
import { FakeTelegramDevice } from '../fakes/fake-telegram-device.ts'

const REASONS = { access: 'Confirm sales and transfers with Face ID / fingerprint', confirm: 'Confirm the sale of 10.00 AXIOM' }

const on = (version: string) => {
  const device = new FakeTelegramDevice(version)
  const platform = new FakePlatform(launchData({ version }))
  platform.featureSet = device
  return { device, confirm: () => confirmMoneyMovement({ platform })(REASONS) }
}

describe('confirmMoneyMovement (right before a sale or a transfer is sent)', () => {
  it.each(['6.0', '7.0'])('on a %s client (no BiometricManager) lets the money go at once, asking nothing', async (version) => {
    const { device, confirm } = on(version)
    expect(await confirm()).toEqual({ kind: 'go', by: 'none' })
    expect(device.accessPrompts).toEqual([])
    expect(device.checks).toEqual([])
  })

  it('on a device without biometrics lets the money go, asking nothing', async () => {
    const { device, confirm } = on('9.1')
    device.hasBiometrics = false
    expect(await confirm()).toEqual({ kind: 'go', by: 'none' })
    expect(device.accessPrompts).toEqual([])
    expect(device.checks).toEqual([])
  })

  it('asks access once with its reason, then checks with the reason each time', async () => {
    const { device, confirm } = on('9.1')
    expect(await confirm()).toEqual({ kind: 'go', by: 'biometrics' })
    expect(await confirm()).toEqual({ kind: 'go', by: 'biometrics' })
    expect(device.accessPrompts).toEqual([REASONS.access])
    expect(device.checks).toEqual([REASONS.confirm, REASONS.confirm])
  })

  it('on a 7.2 client (BiometricManager, no SecureStorage) checks as well', async () => {
    const { device, confirm } = on('7.2')
    expect(await confirm()).toEqual({ kind: 'go', by: 'biometrics' })
    expect(device.checks).toHaveLength(1)
  })

  it('a user who declines access goes on as without biometrics, and is not asked again', async () => {
    const { device, confirm } = on('9.1')
    device.accessAnswer = 'deny'
    expect(await confirm()).toEqual({ kind: 'go', by: 'none' })
    expect(await confirm()).toEqual({ kind: 'go', by: 'none' })
    expect(device.accessPrompts).toHaveLength(1)
    expect(device.checks).toEqual([])
  })

  it('a failed check stops the money; so does one with no verdict, or an access prompt never answered', async () => {
    const failed = on('9.1')
    failed.device.checkOutcome = 'failed'
    expect(await failed.confirm()).toEqual({ kind: 'stop', why: 'failed' })

    const noVerdict = on('9.1')
    noVerdict.device.checkOutcome = 'no-verdict'
    expect(await noVerdict.confirm()).toEqual({ kind: 'stop', why: 'cancelled' })

    const unanswered = on('9.1')
    unanswered.device.accessAnswer = 'no-answer'
    expect(await unanswered.confirm()).toEqual({ kind: 'stop', why: 'cancelled' })
    expect(unanswered.device.checks).toEqual([])
  })

  it('features that cannot load leave nothing to ask: the money goes as before', async () => {
    const platform = new FakePlatform(launchData({ version: '9.1' }))
    platform.features = () => Promise.reject(new Error('chunk failed to load'))
    expect(await confirmMoneyMovement({ platform })(REASONS)).toEqual({ kind: 'go', by: 'none' })
  })
})
