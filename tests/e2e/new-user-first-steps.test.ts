import { randomBytes } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import type { FrameLocator, Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { expectContains, expectText, expectToast, frameEval, nextUser, phone, reloadedBy, text, userShown, watchRequests } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/**
 * A first-time user's first steps, each as the user sees it: the community gate, the tasks (the
 * community task already done, the photo task's limit, its scaling, its busy state and its answer),
 * the welcome tokens on the dashboard and on Sell, the Bond form's minimum, hint and price, the
 * units and decimals of the figures, and the Referral screen on a 360 px phone.
 */
const stack = useStack()

// ---------------------------------------------------------------------------------------------
// A real PNG, made here byte by byte: random RGB, which no encoder can squeeze, so its size is its
// pixels' (1 600 × 1 200 × 3 ≈ 5.5 MiB), like a phone's photo and far over the 1 MiB limit.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (bytes: Buffer): number => {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Buffer): Buffer => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}
const noisePng = (width: number, height: number): Buffer => {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8 bits, RGB, deflate, no filter method, no interlace
  const row = 1 + width * 3
  const raw = randomBytes(row * height)
  for (let y = 0; y < height; y++) raw[y * row] = 0 // each row's filter: none
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))])
}

const MIB = 1024 * 1024

/** Whether a label shows whole on one line (as new-user-walk.test.ts measures it). */
const oneLine = (l: Locator) =>
  l.evaluate((el: HTMLElement) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
    return { text: (el.textContent ?? '').trim(), lines: lines.size, whole: el.scrollWidth <= el.clientWidth }
  })

/** Opens the photo task's sheet: Start, then Check. */
const openPhotoSheet = async (app: FrameLocator) => {
  await app.getByTestId('tab-tasks').click()
  const action = app.getByTestId('task-action-3')
  await expectText(action, 'Start')
  await action.click()
  await expectText(action, 'Check')
  await action.click()
  await app.getByTestId('add-photo-modal').waitFor()
}

/** Holds each POST /api/task/validate until `release` is called, keeping the photo each carried. */
const holdValidation = async (page: Page) => {
  const sent: string[] = []
  let release: () => void = () => undefined
  const gate = new Promise<void>((r) => (release = r))
  await page.route('**/api/task/validate', async (route) => {
    sent.push(String((route.request().postDataJSON() as { photo?: string }).photo ?? ''))
    await gate
    await route.continue()
  })
  return { sent, release: () => release() }
}

describe('the community gate says what the community is, why to join, and what to do after Join', () => {
  it.each([
    ['en', 'The AXIOM community is our Telegram group', 'joining is how the app knows you are a real person', 'Joined? Tap Done to continue.'],
    ['ru', 'Сообщество AXIOM — наша группа в Telegram', 'так приложение знает, что вы живой человек', 'Вступили? Нажмите «Готово», чтобы продолжить.'],
  ] as const)('%s', async (lang, about, why, next) => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user, lang, member: false })
    const inFlight = watchRequests(page)
    const modal = app.getByTestId('community-modal')
    await modal.waitFor()
    await expectContains(app.getByTestId('community-about'), about)
    await expectContains(app.getByTestId('community-why'), why)
    expect(await app.getByTestId('community-next').count()).toBe(0)

    await app.getByTestId('community-join').click()
    await expectText(app.getByTestId('community-next'), next)
    // The sheet now asks for the next step, not the reasons again.
    expect(await app.getByTestId('community-about').count()).toBe(0)
    await reloadedBy(app, () => app.getByTestId('community-done').click())
    await userShown(app, inFlight)

    // The community task knows what the gate learnt: it shows done; the badge counts its reward, unclaimed (spec §2).
    await expectText(app.getByTestId('badge-tasks'), '3')
    await app.getByTestId('tab-tasks').click()
    const note = app.getByTestId('task-note-1')
    await expectText(note, lang === 'en' ? 'You are in the community: claim your reward' : 'Вы в сообществе: заберите награду')
    expect(await app.getByTestId('task-1').getAttribute('class')).toContain('is-joined')
    // Its reward is one tap away (the steps the backend keeps are taken in one go), and then the badge counts the two others.
    await app.getByTestId('task-action-1').click()
    await app.getByTestId('task-claimed-1').waitFor()
    await expectText(app.getByTestId('tasks-balance-amount'), '5.00')
    await expectText(app.getByTestId('badge-tasks'), '2')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the photo task', () => {
  it('says the limit before choosing, uses one word (photo), and says what Start did', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    await app.getByTestId('tab-tasks').click()
    await app.getByTestId('task-action-3').click()
    await expectText(app.getByTestId('task-note-3'), 'Started: now tap Check and send your photo')
    await app.getByTestId('task-action-3').click()
    const sheet = app.getByTestId('add-photo-modal')
    await sheet.waitFor()
    await expectText(app.getByTestId('photo-limit'), 'Up to 1.00 MB. A larger photo is made smaller on your phone before it is sent.')
    expect((await text(sheet)).toLowerCase()).not.toContain('screenshot')
    expect(errors).toEqual([])
    await page.close()
  })

  it('scales a 5 MiB photo down under the limit, shows it busy while it is sent, then what comes next', async () => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user })
    await openPhotoSheet(app)
    const png = noisePng(1600, 1200)
    expect(png.length).toBeGreaterThan(5 * MIB)
    const held = await holdValidation(page)
    await app.getByTestId('photo-input').setInputFiles({ name: 'IMG_0001.png', mimeType: 'image/png', buffer: png })
    // What the sheet will send, said before it is sent: the file's size and the smaller one.
    await expect.poll(() => text(app.getByTestId('photo-size'))).toMatch(/^5\.\d{2} MB, made smaller to 0\.\d{2} MB$/)

    const submit = app.getByTestId('photo-submit')
    await submit.click()
    // Busy while the request is out: the button disabled and busy, a progress line with the size.
    await expect.poll(() => held.sent.length).toBe(1)
    expect(await submit.isDisabled()).toBe(true)
    expect(await submit.getAttribute('aria-busy')).toBe('true')
    await expectContains(app.getByTestId('photo-progress'), 'Sending the photo (0.')
    expect(await app.getByTestId('photo-progress').locator('progress').count()).toBe(1)
    held.release()

    // Sent: a JPEG the backend took (within its 1 MiB), the sheet closed, and the row says what is next.
    const [head = '', body = ''] = held.sent[0]!.split(',')
    expect(head).toBe('data:image/jpeg;base64')
    expect(Buffer.from(body, 'base64').length).toBeLessThanOrEqual(MIB)
    await app.getByTestId('add-photo-modal').waitFor({ state: 'detached' })
    await expectText(app.getByTestId('task-note-3'), 'Photo accepted: tap Claim to get your reward')
    await expectText(app.getByTestId('task-action-3'), 'Claim')
    const tasks = await api<Array<{ task_id: number; status: string }>>(stack, user, 'GET', '/task/list')
    expect(tasks.find((t) => t.task_id === 3)?.status).toBe('VALIDATED')
    expect(errors).toEqual([])
    await page.close()
  })

  it("a server's 413 is the spec's toast, and said in the sheet too, in Russian as well", async () => {
    for (const [lang, toast, inline] of [
      ['en', 'Error: File size is too large! Upload a smaller file.', 'File size is too large! Upload a smaller file.'],
      ['ru', 'Ошибка: файл слишком большой! Загрузите файл поменьше.', 'Файл слишком большой! Загрузите файл поменьше.'],
    ] as const) {
      const { app, page, errors } = await launch(stack, { user: nextUser(), lang })
      // A backend with a smaller limit than the app's: its 413, as the reference backend words it.
      await page.route('**/api/task/validate', (route) => route.fulfill({ status: 413, json: { msg: 'File size is too large! Upload a smaller file.' } }))
      await app.getByTestId('tab-tasks').click()
      await app.getByTestId('task-action-3').click()
      await expect.poll(() => app.getByTestId('task-note-3').count()).toBe(1)
      await app.getByTestId('task-action-3').click()
      await app.getByTestId('add-photo-modal').waitFor()
      await app.getByTestId('photo-input').setInputFiles({ name: 'small.png', mimeType: 'image/png', buffer: noisePng(40, 30) })
      await expect.poll(() => app.getByTestId('photo-submit').isEnabled()).toBe(true)
      await app.getByTestId('photo-submit').click()
      await expectToast(app, 'error', toast)
      await expectText(app.getByTestId('photo-error'), inline)
      // Still open, ready for another photo.
      expect(await app.getByTestId('photo-submit').isEnabled()).toBe(true)
      expect(errors).toEqual([])
      await page.close()
    }
  })
})

describe('welcome tokens', () => {
  it.each([
    ['en', 'Of it, 100.00 AXIOM are welcome tokens: for bonds only, they cannot be sold.', 'To sell: 0.00 (welcome tokens excluded)', 'You can sell up to 0.00 AXIOM: welcome tokens are for bonds only'],
    ['ru', 'Из них 100.00 AXIOM — приветственные токены: только для бондов, продать их нельзя.', 'Можно продать: 0.00 (без приветственных токенов)', 'Продать можно до 0.00 AXIOM: приветственные токены — только для бондов'],
  ] as const)('%s: the dashboard says what part of the main balance they are; Sell says it where the available amount is', async (lang, part, available, over) => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user, lang })
    await expectText(app.getByTestId('balance-main-welcome'), part)
    await launch(stack, { user, lang, path: '/sell', page })
    await expectText(app.getByTestId('sell-amount-available'), available)
    await app.getByTestId('sell-amount').fill('5')
    await expectText(app.getByTestId('sell-amount-error'), over)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the Bond form', () => {
  it('states the minimum up front, asks only for what is missing, and says the price may move before the wallet asks', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser(), path: '/bond' })
    await app.getByTestId('screen-bond').waitFor()
    await expectText(app.getByTestId('bond-min'), 'From 1.00 AXIOM per bond.')
    // A term is picked from the start: the hint asks for the amount alone.
    await app.getByTestId('bond-plan-30').waitFor()
    await expectText(app.getByTestId('bond-preview-hint'), 'Enter an amount (from 1.00 AXIOM) to see your rewards.')
    await app.getByTestId('bond-amount').fill('10')
    await app.getByTestId('bond-preview-max').waitFor()
    await expectContains(app.getByTestId('bond-preview-ton').locator('..'), 'You pay, at the current price')
    await expectText(
      app.getByTestId('bond-preview-price-note'),
      'The price moves every few seconds: your wallet asks for the amount at the moment you tap Buy bond, which may differ slightly.',
    )
    // A percentage a day reads like every other percentage: no space before '%'.
    await expect.poll(() => text(app.getByTestId('bond-preview-daily'))).toMatch(/^\d+\.\d{2,4}%\/day$/)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('units and decimals', () => {
  it("a bond's reward and max reward, today's earnings and the referral turnover carry AXIOM; the price keeps 6 places", async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const mintId = await activeBond(stack, user, 10, 30)
    const { app, page, errors } = await launch(stack, { user })
    await expect.poll(() => text(app.getByTestId(`mint-reward-${mintId}`).locator('..'))).toMatch(/^\d+\.\d{2,10} AXIOM$/)
    await expect.poll(() => text(app.getByTestId(`mint-max-reward-${mintId}`))).toMatch(/^\d+\.\d{2,4} AXIOM$/)
    await expect.poll(() => text(app.getByTestId('earned-today'))).toMatch(/^\+\d+\.\d{2,6} AXIOM$/)

    // The price ticks every 500 ms here, but the walk may move less than a millionth of a GRAM in a
    // few seconds (a 5-minute step with little drift and little wiggle): read it until it has moved,
    // always at 6 places.
    const prices = new Set<string>()
    await expect
      .poll(async () => prices.add(await text(app.getByTestId('price'))).size, { timeout: 20_000, interval: 250 })
      .toBeGreaterThan(1)
    for (const p of prices) expect(p).toMatch(/^\d+\.\d{6} GRAM$/)

    // Platform stats: every amount and the percentage at 2 places.
    const stats = app.getByTestId('financial-stats')
    await stats.locator('[data-testid="stat-total_ton_raised"]').waitFor()
    for (const key of ['total_locked', 'total_withdrawn', 'total_ton_raised', 'collective_bonus'])
      expect(await text(app.getByTestId(`stat-${key}`))).toMatch(/^[\d ]+\.\d{2}( AXIOM| GRAM|%)$/)

    await app.getByTestId('tab-referral').click()
    await expectText(app.getByTestId('referral-level').locator('.level-card__meta'), 'Turnover: 0.00 AXIOM')
    await expectText(app.getByTestId('tier-threshold-2'), '50.00 AXIOM')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the Referral screen on a 360 px phone', () => {
  it.each(['en', 'ru'] as const)('%s: one line per tier cell, the code readable, a header like the others, one copy button', async (lang) => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user, lang, path: '/referral' })
    await phone(page, 360)
    await app.getByTestId('screen-referral').waitFor()
    await app.locator('html').evaluate(() => document.fonts.ready)
    const me = await api<{ ref_code: string }>(stack, user, 'GET', '/user/me')

    // The tier table: the current level's badge on one line, beside its level, and the turnover column each on one line.
    const you = app.getByTestId('tier-1').locator('.tier-you')
    await you.waitFor()
    expect(await oneLine(you)).toMatchObject({ lines: 1, whole: true })
    const [badge, level] = await Promise.all([you.boundingBox(), app.getByTestId('tier-1').locator('.tier-level').boundingBox()])
    expect(Math.abs(badge!.y + badge!.height / 2 - (level!.y + level!.height / 2))).toBeLessThan(6)
    expect(await oneLine(app.getByTestId('tier-table').locator('th').nth(1))).toMatchObject({ lines: 1, whole: true })
    expect(await oneLine(app.getByTestId('tier-threshold-8'))).toMatchObject({ lines: 1, whole: true })
    expect(await frameEval(app, () => document.documentElement.scrollWidth <= innerWidth)).toBe(true)

    // The link is shown whole (nothing cut off), and the code on a line of its own.
    const link = app.getByTestId('referral-link')
    expect(await text(link)).toContain(me.ref_code)
    expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    await expectText(app.getByTestId('referral-code'), me.ref_code)

    // A header like every other screen's (a title and a line under it), and one copy button: the top bar's (spec §2).
    expect(await app.getByTestId('screen-referral').locator('.screen-header p').count()).toBe(1)
    expect(await app.getByRole('button', { name: lang === 'en' ? 'Copy referral link' : 'Скопировать реферальную ссылку', exact: true }).count()).toBe(1)
    await app.getByTestId('copy-referral-link').waitFor()
    expect(errors).toEqual([])
    await page.close()
  })
})
