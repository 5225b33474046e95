import { describe, expect, it } from 'vitest'
import { expectToast, nextUser } from './helpers.ts'
import { launch, useStack } from './stack.ts'

const stack = useStack()

/** The host's log lines of one event name, newest last. */
const hostEvents = (page: import('playwright-core').Page, name: string) =>
  page.evaluate((n) => {
    const host = (window as unknown as { __axiomHost: { events: Array<{ dir: string; type: string; data: unknown }> } }).__axiomHost
    return host.events.filter((e) => e.type === n).map((e) => JSON.stringify(e.data))
  }, name)

describe('inviting friends and the referral link (spec §2, §5)', () => {
  it('copies the referral link with "Referral link copied to clipboard"', async () => {
    const { page, app } = await launch(stack, { user: nextUser() })
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.appUrl).origin })
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('copy-referral-link').click()
    await expectToast(app, 'success', 'Referral link copied to clipboard')
    await page.close()
  })

  it('shares natively from client 8.0 through a prepared message the host sends', async () => {
    const { page, app } = await launch(stack, { user: nextUser(), version: '8.0' })
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('invite-friends').click()
    await page.getByTestId('host-share').waitFor()
    await page.getByTestId('host-share-send').click()
    await expect.poll(() => hostEvents(page, 'prepared_message_sent')).toHaveLength(1)
    await page.close()
  })

  it('closing the native share screen declines it: no second share screen follows', async () => {
    const { page, app } = await launch(stack, { user: nextUser(), version: '8.0' })
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('invite-friends').click()
    await page.getByTestId('host-share').waitFor()
    await page.getByTestId('host-share-cancel').click()
    await expect.poll(() => hostEvents(page, 'prepared_message_failed')).toEqual([JSON.stringify({ error: 'USER_DECLINED' })])
    // Let the app act on it: the share-link URL would follow at once.
    await app.getByTestId('invite-friends').waitFor()
    await page.waitForTimeout(500)
    expect(await hostEvents(page, 'web_app_open_tg_link')).toEqual([])
    await page.close()
  })

  it('falls back to the share-link URL on older clients', async () => {
    const { page, app } = await launch(stack, { user: nextUser(), version: '7.10' })
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('invite-friends').click()
    await expect
      .poll(async () => (await hostEvents(page, 'web_app_open_tg_link')).join(' '))
      .toMatch(/share\/url\?url=https%3A%2F%2Ft\.me%2Faxiom_dev_bot%2Fapp%3Fstartapp%3D/)
    await page.close()
  })
})

describe('the TON Connect manifest (spec §2)', () => {
  it('is a file the app serves, describing the app at its own origin', async () => {
    const res = await fetch(`${stack.appUrl.replace(/\/$/, '')}/tonconnect-manifest.json`)
    const manifest = (await res.json()) as { url: string; name: string; iconUrl: string }
    expect(manifest).toMatchObject({ name: 'AXIOM', url: new URL(stack.appUrl).origin })
    expect((await fetch(manifest.iconUrl)).headers.get('content-type')).toMatch(/image\/png/)
  })
})
