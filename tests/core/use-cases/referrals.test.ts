import { describe, expect, it } from 'vitest'
import { STORAGE_KEYS } from '../../../core/index.ts'
import { INVITE_TEXT, inviteFriends } from '../../../core/use-cases/invite-friends.ts'
import { loadReferrals } from '../../../core/use-cases/load-referrals.ts'
import { useCasesOver } from '../fakes/use-cases.ts'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { answer } from '../fakes/fake-http-transport.ts'
import { FakePlatform, launchData } from '../fakes/fake-platform.ts'
import { MemoryKeyValueStore } from '../fakes/memory-stores.ts'
import { aReferral } from '../fakes/records.ts'
import { succeed } from '../fakes/run.ts'
import { NetworkError } from '../../../core/index.ts'

const APP = { botUsername: 'axiom_bot', appShortName: 'axiom' }
// The share link carries the mini app's direct link, started with the referral code.
const SHARE_URL = `https://t.me/share/url?url=${encodeURIComponent('https://t.me/axiom_bot/axiom?startapp=REF42')}&text=${encodeURIComponent(INVITE_TEXT)}`

describe('referrals', () => {
  const withReferrals = (n: number, lastRefCount?: string) => {
    const api = new FakeAxiomApi()
    api.referralList = Array.from({ length: n }, (_, i) => aReferral(i + 1))
    const storage = new MemoryKeyValueStore(lastRefCount === undefined ? {} : { [STORAGE_KEYS.lastRefCount]: lastRefCount })
    return { api, storage }
  }

  it("badges '+N' for referrals beyond the count last seen", async () => {
    const { api, storage } = withReferrals(5, '3')

    const { list, badge } = await succeed(loadReferrals({ api, storage }))

    expect(list).toHaveLength(5)
    expect(badge).toBe('+2')
  })

  it('counts every referral as new when none was seen yet', async () => {
    const { api, storage } = withReferrals(4)

    expect((await succeed(loadReferrals({ api, storage }))).badge).toBe('+4')
  })

  it('shows no badge when there is nothing new', async () => {
    const { api, storage } = withReferrals(0)

    expect((await succeed(loadReferrals({ api, storage }))).badge).toBeNull()
  })

  it('clears the badge once the referrals were seen', async () => {
    const { api, storage } = withReferrals(5, '3')

    useCasesOver({ storage }).markReferralsSeen(5)

    expect((await succeed(loadReferrals({ api, storage }))).badge).toBeNull()
    expect(storage.get(STORAGE_KEYS.lastRefCount)).toBe('5')
  })

  it('loads one page of 300, newest first as the server sends them, and badges against the total', async () => {
    const { api, storage } = withReferrals(650, '600')

    const first = await succeed(loadReferrals({ api, storage }))
    expect(api.callsTo('referrals').at(-1)?.input).toEqual({ page: 1, limit: 300 })
    expect(first).toMatchObject({ total: 650, page: 1, badge: '+50' })
    expect(first.list.map((r) => r.id)).toEqual(api.referralList.slice(0, 300).map((r) => r.id))
    const third = await succeed(loadReferrals({ api, storage }, 3))
    expect(api.callsTo('referrals').at(-1)?.input).toEqual({ page: 3, limit: 300 })
    expect(third.list.map((r) => r.id)).toEqual(api.referralList.slice(600).map((r) => r.id))
  })
})

describe('inviteFriends', () => {
  const setup = (version: string) => {
    const api = new FakeAxiomApi()
    api.inlineMessageId = 'prepared-77'
    const platform = new FakePlatform(launchData({ version }))
    return { api, platform, invite: () => succeed(inviteFriends({ api, platform })(APP, 'REF42')) }
  }

  it.each(['8.0', '8.1', '10.2'])('on client %s shares the prepared message natively', async (version) => {
    const s = setup(version)

    expect(await s.invite()).toBe('native')
    expect(s.platform.sharedMessages).toEqual(['prepared-77'])
    expect(s.platform.openedPlatformLinks).toEqual([])
  })

  it.each(['6.0', '7.10', '7.9'])('on client %s opens the t.me share link instead', async (version) => {
    const s = setup(version)

    expect(await s.invite()).toBe('share-url')
    expect(s.api.callsTo('shareMessage')).toEqual([])
    expect(s.platform.sharedMessages).toEqual([])
    expect(s.platform.openedPlatformLinks).toEqual([SHARE_URL])
  })

  it.each(['refused', 'throws'] as const)('falls back to the share link when the native share is %s', async (outcome) => {
    const s = setup('8.0')
    s.platform.shareOutcome = outcome

    expect(await s.invite()).toBe('share-url')
    expect(s.platform.openedPlatformLinks).toEqual([SHARE_URL])
  })

  it('opens no second share screen when the user closes the native one (declined)', async () => {
    const s = setup('8.0')
    s.platform.shareOutcome = 'declined'

    expect(await s.invite()).toBe('declined')
    expect(s.platform.sharedMessages).toEqual(['prepared-77'])
    expect(s.platform.openedPlatformLinks).toEqual([])
  })

  it('falls back to the share link when the message cannot be prepared', async () => {
    const s = setup('8.0')
    s.api.failWith('shareMessage', new NetworkError({}))

    expect(await s.invite()).toBe('share-url')
    expect(s.platform.openedPlatformLinks).toEqual([SHARE_URL])
  })

  it('falls back to the share link when the server fails to prepare it', async () => {
    const { api, http } = httpApiHarness()
    http.on('POST /user/share-message', answer(500, 'bot is down'))
    const platform = new FakePlatform(launchData({ version: '9.0' }))

    expect(await succeed(inviteFriends({ api, platform })(APP, 'REF42'))).toBe('share-url')
    expect(platform.openedPlatformLinks).toEqual([SHARE_URL])
  })
})
