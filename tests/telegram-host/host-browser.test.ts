import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTelegramHost, THEMES, type RunningTelegramHost } from '../../stand-ins/telegram-host/index.ts'
import { launchChromium } from '../support/chromium.ts'
import { hasValidHash, readFields } from '../support/init-data.ts'
import { fakeAdmin, startStandInApp, TEST_BOT_TOKEN, type StaticApp } from './support.ts'


/** The host's iframe once the SDK inside it has loaded. */
const appFrame = async (page: Page, appOrigin: string): Promise<Frame> => {
  const until = Date.now() + 10_000
  while (Date.now() < until) {
    for (const f of page.frames()) {
      if (!f.isDetached() && f.url().startsWith(appOrigin)) {
        const ok = await f.evaluate(() => Boolean((window as any).appLog)).catch(() => false)
        if (ok) return f
      }
    }
    await page.waitForTimeout(50)
  }
  throw new Error('the app frame did not load')
}

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`)

describe('telegram host in Chromium with the real telegram-web-app.js', () => {
  let app: StaticApp
  let host: RunningTelegramHost
  let browser: Browser
  let page: Page
  const admin = fakeAdmin()

  beforeAll(async () => {
    app = await startStandInApp()
    host = await startTelegramHost({ port: 0, appUrl: app.url, botToken: TEST_BOT_TOKEN, admin, botUsername: 'axiom_test_bot' })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    page.on('popup', (p) => void p.close().catch(() => {}))
  })
  afterAll(async () => {
    await browser?.close()
    await host?.close()
    await app?.close()
  })

  it('launches the app with signed initData, then speaks the web-app messages both ways', async () => {
    await page.goto(`${host.url}?user=4242&lang=ru&start=farm_abc&version=8.0&platform=android`)
    let frame = await appFrame(page, app.origin)

    // The launch: signed initData for the chosen user, language and start parameter.
    const launched = await frame.evaluate(() => {
      const W = (window as any).Telegram.WebApp
      return { initData: W.initData as string, version: W.version as string, platform: W.platform as string, start: W.initDataUnsafe.start_param }
    })
    expect(hasValidHash(launched.initData, TEST_BOT_TOKEN)).toBe(true)
    const data = readFields(launched.initData)
    expect(data.user).toMatchObject({ id: 4242, language_code: 'ru' })
    expect(data.fields.start_param).toBe('farm_abc')
    // A Bot API 8.0 client sends Telegram's third-party `signature` (64 bytes, base64url), under the hash.
    expect(data.fields.signature).toMatch(/^[A-Za-z0-9_-]{86}$/)
    expect(launched).toMatchObject({ version: '8.0', platform: 'android', start: 'farm_abc' })

    // ready, theme and viewport answered.
    await expect.poll(() => byTestId(page, 'host-ready').isVisible()).toBe(true)
    const env = await frame.evaluate(() => {
      const W = (window as any).Telegram.WebApp
      return { bg: W.themeParams.bg_color, scheme: W.colorScheme, height: W.viewportHeight, expanded: W.isExpanded }
    })
    expect(env).toMatchObject({ bg: THEMES.light.bg_color, scheme: 'light', expanded: true })
    expect(env.height).toBeGreaterThan(400)
    const log = byTestId(page, 'host-log')
    await expect.poll(() => log.textContent()).toContain('web_app_ready')
    expect(await log.textContent()).toContain('theme_changed')
    expect(await log.textContent()).toContain('viewport_changed')

    // Back button: drawn on request, a click reaches the app, hidden again on request.
    await expect.poll(() => byTestId(page, 'host-back').isVisible()).toBe(false)
    await frame.evaluate(() => (window as any).Telegram.WebApp.BackButton.show())
    await byTestId(page, 'host-back').click()
    await expect.poll(() => frame.evaluate(() => (window as any).appLog.back)).toBe(1)
    await frame.evaluate(() => (window as any).Telegram.WebApp.BackButton.hide())
    await expect.poll(() => byTestId(page, 'host-back').isVisible()).toBe(false)

    // Haptics, colours, swipes and orientation.
    await frame.evaluate(() => (window as any).Telegram.WebApp.HapticFeedback.notificationOccurred('error'))
    await expect.poll(() => byTestId(page, 'host-haptic').textContent()).toBe('notification: error')
    await frame.evaluate(() => {
      const W = (window as any).Telegram.WebApp
      W.setHeaderColor('#d8ecfb')
      W.setBackgroundColor('#eaf5ff')
      W.disableVerticalSwipes()
      W.lockOrientation()
    })
    await expect.poll(() => byTestId(page, 'host-header-color').textContent()).toBe('#d8ecfb')
    expect(await byTestId(page, 'host-bg-color').textContent()).toBe('#eaf5ff')
    expect(await byTestId(page, 'host-swipes').textContent()).toBe('disabled')
    expect(await byTestId(page, 'host-orientation').textContent()).toBe('locked')

    // The community link marks the launched user a member.
    await frame.evaluate(() => (window as any).Telegram.WebApp.openTelegramLink('https://t.me/axiom_community'))
    await expect.poll(() => admin.calls).toContainEqual([4242, true])
    await expect.poll(() => log.textContent()).toContain('community joined')

    // Share a message the bot prepared (savePreparedInlineMessage on the host's Bot API): the sheet
    // shows it; Send answers prepared_message_sent, Cancel prepared_message_failed, and an id
    // Telegram never issued fails.
    const link = 'https://t.me/axiom_test_bot/app?startapp=INV1'
    const saved = await fetch(`${host.url}bot${TEST_BOT_TOKEN}/savePreparedInlineMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user_id: 4242,
        allow_user_chats: true,
        result: { type: 'article', id: 'x', title: 'Invite', input_message_content: { message_text: 'Join me on AXIOM' }, reply_markup: { inline_keyboard: [[{ text: 'Open AXIOM', url: link }]] } },
      }),
    })
    const id = ((await saved.json()) as any).result.id as string
    const share = (messageId: string) =>
      frame.evaluate((messageId) => {
        const W = (window as any).Telegram.WebApp
        W.shareMessage(messageId, (sent: boolean) => (window as any).appLog.shared.push(sent))
      }, messageId)
    await share(id)
    await expect.poll(() => byTestId(page, 'host-share-prepared').textContent()).toContain('Join me on AXIOM')
    await byTestId(page, 'host-share-send').click()
    await expect.poll(() => frame.evaluate(() => (window as any).appLog.shared)).toEqual([true])
    // What a friend taps next is the prepared message's button.
    expect(await byTestId(page, 'host-open-start-link').getAttribute('title')).toBe(link)
    await share(id)
    await byTestId(page, 'host-share-cancel').click()
    await expect.poll(() => frame.evaluate(() => (window as any).appLog.shared)).toEqual([true, false])
    await share('never-issued')
    await expect.poll(() => frame.evaluate(() => (window as any).appLog.shared)).toEqual([true, false, false])

    // Minimize / restore reach the app as deactivated / activated.
    await byTestId(page, 'host-minimize').click()
    await expect.poll(() => frame.evaluate(() => (window as any).appLog.deactivated)).toBe(1)
    await byTestId(page, 'host-restore').click()
    await expect.poll(() => frame.evaluate(() => (window as any).appLog.activated)).toBe(1)

    // Close shows the closed state; Reopen launches again with fresh, valid initData for the same user.
    await frame.evaluate(() => (window as any).Telegram.WebApp.close())
    await expect.poll(() => byTestId(page, 'host-closed').isVisible()).toBe(true)
    await byTestId(page, 'host-reopen').click()
    frame = await appFrame(page, app.origin)
    const again = await frame.evaluate(() => (window as any).Telegram.WebApp.initData as string)
    expect(hasValidHash(again, TEST_BOT_TOKEN)).toBe(true)
    expect(readFields(again).user?.id).toBe(4242)
    expect(await byTestId(page, 'host-closed').isVisible()).toBe(false)
  })

  it('relaunches from the form as another user without leaking the previous start parameter', async () => {
    await page.goto(`${host.url}?user=1002&start=REF123`)
    let frame = await appFrame(page, app.origin)
    expect(await frame.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.start_param)).toBe('REF123')

    await byTestId(page, 'host-user-id').fill('777')
    await byTestId(page, 'host-first-name').fill('Zed')
    await byTestId(page, 'host-start').fill('')
    await byTestId(page, 'host-scheme').selectOption('dark')
    await byTestId(page, 'host-version').fill('6.1')
    await byTestId(page, 'host-launch').click()
    await expect.poll(async () => {
      frame = await appFrame(page, app.origin)
      return frame.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.user?.id)
    }).toBe(777)
    const w = await frame.evaluate(() => {
      const W = (window as any).Telegram.WebApp
      return { name: W.initDataUnsafe.user.first_name, start: W.initDataUnsafe.start_param ?? null, version: W.version, bg: W.themeParams.bg_color }
    })
    expect(w).toEqual({ name: 'Zed', start: null, version: '6.1', bg: THEMES.dark.bg_color })
    // A 6.1 client is older than the `signature` field: its initData has none, and its hash still checks out.
    const old = await frame.evaluate(() => (window as any).Telegram.WebApp.initData as string)
    expect(hasValidHash(old, TEST_BOT_TOKEN)).toBe(true)
    expect(readFields(old).fields).not.toHaveProperty('signature')
    expect(new URL(page.url()).searchParams.get('user')).toBe('777')

    // A t.me link opened with openLink (web_app_open_link) is routed like Telegram does: the community link joins.
    await frame.evaluate(() => (window as any).Telegram.WebApp.openLink('https://t.me/axiom_community'))
    await expect.poll(() => admin.calls).toContainEqual([777, true])
    expect(await byTestId(page, 'host-log').textContent()).toContain('opened the community')
    // Other links open in a new tab and are logged.
    await frame.evaluate(() => (window as any).Telegram.WebApp.openLink('https://example.org/docs'))
    await expect.poll(() => byTestId(page, 'host-log').textContent()).toContain('https://example.org/docs')
  })

  it('answers popups, and opens a shared bot link as a new user with its start parameter', async () => {
    await page.goto(`${host.url}?user=1003&version=8.0`)
    let frame = await appFrame(page, app.origin)
    await frame.evaluate(() => {
      const W = (window as any).Telegram.WebApp
      W.showPopup({ title: 'T', message: 'M', buttons: [{ id: 'yes', type: 'ok' }, { id: 'no', type: 'cancel' }] }, (id: string) =>
        (window as any).appLog.popups.push(id),
      )
    })
    await byTestId(page, 'host-popup-button').first().click()
    await expect.poll(() => frame.evaluate(() => (window as any).appLog.popups)).toEqual(['yes'])

    await frame.evaluate(() => (window as any).Telegram.WebApp.openTelegramLink('https://t.me/axiom_test_bot?startapp=farm_xyz'))
    await byTestId(page, 'host-open-start-link').click()
    await expect.poll(async () => {
      frame = await appFrame(page, app.origin)
      return frame.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.start_param)
    }).toBe('farm_xyz')
    const id = await frame.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.user.id)
    expect(id).not.toBe(1003)
  })

  it('a farming Share (t.me/share/url with a link to the bot) is the last link a new user can open', async () => {
    await page.goto(`${host.url}?user=1005`)
    const frame = await appFrame(page, app.origin)
    const link = 'https://t.me/axiom_test_bot/app?startapp=farm_F1'
    await frame.evaluate((l) => (window as any).Telegram.WebApp.openTelegramLink(`https://t.me/share/url?url=${encodeURIComponent(l)}&text=Farm`), link)
    const open = byTestId(page, 'host-open-start-link')
    await open.waitFor()
    expect(await open.getAttribute('title')).toBe(link)
    await open.click()
    await expect.poll(async () => {
      const f = await appFrame(page, app.origin)
      return f.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.start_param)
    }).toBe('farm_F1')
  })

  it('opens a t.me direct link given in its query, and a ?start= link as the bot chat, with no start parameter for the app', async () => {
    const link = 'https://t.me/axiom_test_bot/app?startapp=REF77'
    await page.goto(`${host.url}?user=1004&link=${encodeURIComponent(link)}`)
    let frame = await appFrame(page, app.origin)
    expect(await frame.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.start_param)).toBe('REF77')
    expect(await byTestId(page, 'host-start').inputValue()).toBe('REF77')

    await frame.evaluate(() => (window as any).Telegram.WebApp.openTelegramLink('https://t.me/axiom_test_bot?start=REF77'))
    await byTestId(page, 'host-open-start-link').click()
    await expect.poll(() => byTestId(page, 'host-log').textContent()).toContain('link opened the bot chat')
    // The bot's chat opens (not the app), with /start REF77 sent by the new user.
    await expect.poll(() => byTestId(page, 'host-bot-chat').isVisible()).toBe(true)
    await expect.poll(() => byTestId(page, 'host-chat-list').textContent()).toContain('/start REF77')
    expect(await byTestId(page, 'host-iframe').count()).toBe(0)
    expect(await byTestId(page, 'host-log').textContent()).toContain('/start REF77')
    // The chat's menu button opens the app, with no start parameter, as that new user.
    await byTestId(page, 'host-chat-open-app').click()
    await expect.poll(async () => {
      frame = await appFrame(page, app.origin)
      return frame.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.user.id)
    }).not.toBe(1004)
    expect(await frame.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.start_param ?? null)).toBeNull()
  })
})
