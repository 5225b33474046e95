import { writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { expectContains, expectText, nextUser, phone, text } from './helpers.ts'
import { api, launch, makeMember, useStack } from './stack.ts'

/** The task flow with its proof modals, and referral sign-up through the start parameter. */
const stack = useStack()
const tmp = mkdtempSync(join(tmpdir(), 'axiom-e2e-photo-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('tasks', () => {
  it('a member\'s community task is done with its reward one tap away; the link task goes start → check → claim, and the badge counts down', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    // A member has done the community task, its reward not yet claimed: the badge counts it with the two others (spec §2).
    await expectText(app.getByTestId('badge-tasks'), '3')
    await app.getByTestId('tab-tasks').click()
    await app.getByTestId('tasks-list').waitFor()
    await expectText(app.getByTestId('tasks-balance-amount'), '0.00')

    // The community task: Claim takes the steps the backend keeps, up to the reward.
    const community = app.getByTestId('task-action-1')
    await expectText(community, 'Claim')
    await community.click()
    await expectText(app.getByTestId('task-claimed-1'), 'Claimed')
    await expectText(app.getByTestId('badge-tasks'), '2')
    await expectText(app.getByTestId('tasks-balance-amount'), '5.00')

    // The link task: Start opens its link in the host, Check asks for the visited link.
    const linkTask = app.getByTestId('task-action-2')
    await linkTask.click()
    await expectContains(page.getByTestId('host-last-link'), 't.me/axiom_news')
    await expectText(linkTask, 'Check')
    await linkTask.click()
    const modal = app.getByTestId('link-verification-modal')
    await modal.waitFor()
    expect(await app.getByTestId('link-verification-submit').isDisabled()).toBe(true)
    await app.getByTestId('link-verification-input').fill('https://t.me/axiom_news')
    await app.getByTestId('link-verification-submit').click()
    await modal.waitFor({ state: 'detached' })
    await expectText(linkTask, 'Claim')
    await linkTask.click()
    await expectText(app.getByTestId('task-claimed-2'), 'Claimed')
    await expectText(app.getByTestId('badge-tasks'), '1')
    await expectText(app.getByTestId('tasks-balance-amount'), '8.00')
    expect(errors).toEqual([])
    await page.close()
  })

  it('a file over 1 MiB that the browser cannot open as a photo is refused in the sheet, and nothing is sent', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    // Telegram opens a mini app half-height: 400 px on a small phone, shorter than the sheet with its error.
    await phone(page, 390, 400)
    await app.getByTestId('tab-tasks').click()
    const photoTask = app.getByTestId('task-action-3')
    await photoTask.click()
    await expectText(photoTask, 'Check')
    await photoTask.click()
    const modal = app.getByTestId('add-photo-modal')
    await modal.waitFor()
    // A PNG signature followed by 1.2 MiB of data: an image by its type, but no picture to scale down.
    const file = join(tmp, 'big.png')
    const png = Buffer.alloc(1.2 * 1024 * 1024, 7)
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png)
    writeFileSync(file, png)
    let sent = 0
    await page.route('**/api/task/validate', (route) => (sent++, route.continue()))
    await app.getByTestId('photo-input').setInputFiles(file)
    await expectText(app.getByTestId('photo-error'), 'This file cannot be opened as a photo. Choose another photo.')
    expect(await app.getByTestId('photo-submit').isDisabled()).toBe(true)
    // The sheet is taller than the screen; read down to its end, and its close button is still in its top corner.
    const sheet = app.locator('.modal__sheet')
    expect(await sheet.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
    await sheet.evaluate((el) => el.scrollTo(0, el.scrollHeight))
    const shown = await sheet.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const close = el.querySelector('[data-testid="modal-close"]')!.getBoundingClientRect()
      return el.scrollTop > 0 && close.top >= box.top && close.bottom <= box.bottom
    })
    expect(shown).toBe(true)
    await app.getByTestId('modal-close').click()
    // Nothing was sent: the task still waits for its check, and the badge still counts it.
    expect(sent).toBe(0)
    await expectText(photoTask, 'Check')
    await expectText(app.getByTestId('badge-tasks'), '3')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('referral sign-up', () => {
  it('a user launched with a referral code joins the referrer’s list, with a +1 badge until seen', async () => {
    const p = nextUser()
    await makeMember(stack, p, 'Paula')
    const me = await api<{ ref_code: string }>(stack, p, 'GET', '/user/me')

    const r = nextUser()
    const referred = await launch(stack, { user: r, name: 'Rita', start: me.ref_code })
    await referred.app.getByTestId('screen-dashboard').waitFor()
    await referred.page.close()

    const { app, page, errors } = await launch(stack, { user: p, name: 'Paula' })
    await expectText(app.getByTestId('badge-referral'), '+1')
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('screen-referral').waitFor()
    const list = app.getByTestId('referrals-list')
    await list.waitFor()
    await expect.poll(() => list.locator('li').count()).toBe(1)
    await expectContains(list, 'Rita')
    await expectContains(list, 'Level 1')
    await expect.poll(() => app.getByTestId('badge-referral').count()).toBe(0)
    // Seen is remembered: back on the dashboard the badge stays away.
    await app.getByTestId('tab-dashboard').click()
    await app.getByTestId('screen-dashboard').waitFor()
    expect(await app.getByTestId('badge-referral').count()).toBe(0)
    // The referral link carries the code.
    await app.getByTestId('tab-referral').click()
    expect(await text(app.getByTestId('referral-link'))).toContain(me.ref_code)
    expect(errors).toEqual([])
    await page.close()
  })
})
