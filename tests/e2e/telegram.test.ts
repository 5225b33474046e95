import { describe, expect, it } from 'vitest'
import { nextUser, reloadedBy, userShown, watchRequests } from './helpers.ts'
import { api, launch, useStack } from './stack.ts'

/** Live on Telegram: membership from getChatMember, the bot's chat, prepared messages — all on the emulator's Bot API. */
const stack = useStack({ live: true })

const referralsOf = async (user: number) => (await api<{ items: Array<{ name: string }> }>(stack, user, 'GET', '/user/referrals')).items

describe('the bot and the Bot API in Chromium', () => {
  it('a ?start=<ref_code> link: the bot answers in the chat, its button opens the app, and the friend is registered under the referrer', async () => {
    const referrer = nextUser()
    const friend = nextUser()
    const { ref_code } = await api<{ ref_code: string }>(stack, referrer, 'GET', '/user/me')
    const { page, app } = await launch(stack, { user: friend, member: false, link: `https://t.me/axiom_dev_bot?start=${ref_code}` })
    // The chat opens, not the app: Telegram sent /start <code> to the bot, which answered.
    await page.getByTestId('host-bot-chat').waitFor()
    const button = page.getByTestId('host-chat-button')
    await button.waitFor({ timeout: 10_000 })
    expect(await page.getByTestId('host-chat-list').textContent()).toContain(`/start ${ref_code}`)
    expect(await page.getByTestId('host-chat-list').textContent()).toContain('Welcome to AXIOM')
    expect(await referralsOf(referrer)).toHaveLength(0)
    await button.click()
    await app.getByTestId('community-modal').waitFor()
    await expect.poll(async () => (await referralsOf(referrer)).map((r) => r.name), { timeout: 10_000 }).toEqual([`User ${friend}`])
    await page.close()
  })

  /** Leave in the emulator, then a new sign-in (another device: a fresh browser context) on `version`, at the gate. */
  const leftAndBack = async (version: string) => {
    const user = nextUser()
    stack.telegram.state.knowUser({ id: user, first_name: `User ${user}` })
    stack.telegram.state.setMember(user, true)
    const first = await launch(stack, { user, member: false })
    await first.app.getByTestId('tab-referral').waitFor()
    expect(await first.app.getByTestId('community-modal').count()).toBe(0)
    await first.page.getByTestId('host-leave').click()
    await expect.poll(() => stack.telegram.state.members.get(user)).toBe('left')
    await first.page.close()

    const context = await stack.browser.newContext({ viewport: { width: 1100, height: 900 } })
    const page = await context.newPage()
    const popups: string[] = []
    page.on('popup', (p) => {
      popups.push(p.url())
      void p.close().catch(() => {})
    })
    const again = await launch(stack, { user, member: false, version, page })
    await again.app.getByTestId('community-modal').waitFor()
    return { user, context, page, again, popups, signedInAt: Date.now() }
  }

  /** Join the community as the app opens it (the emulator joins the user), then Done lifts the gate through getChatMember. */
  const joinThenDone = async ({ user, page, again, popups, signedInAt }: Awaited<ReturnType<typeof leftAndBack>>) => {
    await again.app.getByTestId('community-join').click()
    await expect.poll(() => stack.telegram.state.members.get(user)).toBe('member')
    expect(await page.getByTestId('host-log').textContent()).toContain('opened the community')
    // Telegram took the link: no browser tab was opened for it.
    expect(popups).toEqual([])
    // Time is the subject: /user/me asks Telegram again at most every 10 s while the user is not a member.
    await page.waitForTimeout(Math.max(0, 10_500 - (Date.now() - signedInAt)))
    const inFlight = watchRequests(page)
    await reloadedBy(again.app, () => again.app.getByTestId('community-done').click())
    // The reloaded app's /user/me asked Telegram again and answered: the gate is gone.
    await userShown(again.app, inFlight)
    expect(await again.app.getByTestId('community-modal').count()).toBe(0)
  }

  it('Leave → the gate shows at the next sign-in; on a 6.0 client, Join the community (a window.open) → Done → the gate lifts', async () => {
    const at = await leftAndBack('6.0')
    await joinThenDone(at)
    await at.context.close()
  }, 60_000)

  it('on a 7.10 client, Join the community (openTelegramLink) → Done → the gate lifts', async () => {
    const at = await leftAndBack('7.10')
    await joinThenDone(at)
    await at.context.close()
  }, 60_000)

  it('Invite Friends on client 8.0 shares the prepared message; the friend who taps it is registered under the inviter', async () => {
    const inviter = nextUser()
    stack.telegram.state.knowUser({ id: inviter, first_name: `User ${inviter}` })
    stack.telegram.state.setMember(inviter, true)
    const { page, app } = await launch(stack, { user: inviter, member: false, version: '8.0' })
    const { ref_code } = await api<{ ref_code: string }>(stack, inviter, 'GET', '/user/me')
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('invite-friends').click()
    await page.getByTestId('host-share').waitFor()
    await expect.poll(() => page.getByTestId('host-share-prepared').textContent()).toContain(`https://t.me/axiom_dev_bot/app?startapp=${ref_code}`)
    await page.getByTestId('host-share-send').click()
    // "Open the last bot link as a new user": the prepared message's button.
    const open = page.getByTestId('host-open-start-link')
    await open.waitFor()
    expect(await open.getAttribute('title')).toBe(`https://t.me/axiom_dev_bot/app?startapp=${ref_code}`)
    await open.click()
    await expect.poll(async () => (await referralsOf(inviter)).length, { timeout: 15_000 }).toBe(1)
    await page.close()
  })
})

