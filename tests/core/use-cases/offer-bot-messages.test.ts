import { describe, expect, it } from 'vitest'
import { offerBotMessages } from '../../../core/use-cases/offer-bot-messages.ts'
import { FakePlatform, launchData } from '../fakes/fake-platform.ts'
import { MemoryKeyValueStore } from '../fakes/memory-stores.ts'

const setup = (allowsWriteToPm?: boolean) => {
  const platform = new FakePlatform(launchData(allowsWriteToPm === undefined ? {} : { allowsWriteToPm }))
  const storage = new MemoryKeyValueStore()
  return { platform, storage, offer: offerBotMessages({ platform, storage }) }
}

describe('offerBotMessages (after a payment went out)', () => {
  it.each([undefined, false])('asks a user whose launch allows_write_to_pm is %s, once on this device', async (allows) => {
    const s = setup(allows)
    expect(await s.offer()).toBe('allowed')
    expect(await s.offer()).toBe('not-asked')
    expect(s.platform.writeAccessRequests).toBe(1)
  })

  it('does not ask again a user who declined', async () => {
    const s = setup(false)
    s.platform.writeAccessAnswer = false
    expect(await s.offer()).toBe('declined')
    expect(await s.offer()).toBe('not-asked')
    expect(s.platform.writeAccessRequests).toBe(1)
  })

  it('never asks a user who already lets the bot write, nor outside the platform', async () => {
    const allowed = setup(true)
    expect(await allowed.offer()).toBe('not-asked')
    expect(allowed.platform.writeAccessRequests).toBe(0)
    const outside = setup()
    outside.platform.setLaunch(null)
    expect(await outside.offer()).toBe('not-asked')
    expect(outside.platform.writeAccessRequests).toBe(0)
  })
})
