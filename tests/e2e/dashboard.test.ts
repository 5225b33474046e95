import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { directionOf, type Language, LANGUAGES } from '../../core/domain/languages.ts'
import { formatNonZero, VISIBILITY_REFETCH_MIN_MS } from '../../core/index.ts'
import type { MessageKey } from '../../ui/i18n/en.ts'
import { catalogueFiles } from '../support/catalogue-files.ts'
import { expectText, frameEval, nextUser, phone, shownAmount, tabLabels, text } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/** The dashboard's platform stats, and the Russian dashboard on a phone-sized screen. */
const stack = useStack()

interface WireStats {
  readonly total_users: number
  readonly total_locked: string
  readonly active_bonds: number
  readonly active_stakes: number
  readonly total_rewards_paid: string
  readonly total_withdrawn: string
  readonly total_ton_raised: string
  readonly collective_bonus: string
}

/** The figures the card should show for the backend's answer. */
const expectedCard = (s: WireStats): Record<string, string> => ({
  total_locked: `${shownAmount(s.total_locked, 2)} AXIOM`,
  total_rewards_paid: `${formatNonZero(s.total_rewards_paid)} AXIOM`,
  total_withdrawn: `${shownAmount(s.total_withdrawn, 2)} AXIOM`,
  total_ton_raised: `${formatNonZero(s.total_ton_raised)} GRAM`,
  total_users: String(s.total_users),
  active_bonds: String(s.active_bonds),
  active_stakes: String(s.active_stakes),
  collective_bonus: `${formatNonZero(s.collective_bonus)}%`,
})

const shownCard = async (app: FrameLocator): Promise<Record<string, string>> => {
  const out: Record<string, string> = {}
  for (const key of ['total_locked', 'total_rewards_paid', 'total_withdrawn', 'total_ton_raised', 'total_users', 'active_bonds', 'active_stakes', 'collective_bonus'])
    out[key] = await text(app.getByTestId(`stat-${key}`))
  return out
}

describe('platform stats on the dashboard', () => {
  it('shows the figures the backend holds, formatted as amounts, and refreshes them when the app is back in view', async () => {
    const user = nextUser()
    await makeMember(stack, user, 'Alice')
    // Figures with more decimals than the card shows, so that rounding would be seen.
    await activeBond(stack, user, 500, 90)
    await activeBond(stack, user, 120.129, 30)
    const staked = await activeBond(stack, user, 300.5, 60)
    await api(stack, user, 'POST', '/staking/create', { mint_id: staked })
    await stack.server.admin.credit(user, '1234.5678')
    await api(stack, user, 'POST', '/withdraw/create', { from_ref_balance: false, token_amount: '40.999', address: `0:${'3f9a'.repeat(16)}` })

    const { app, page, errors } = await launch(stack, { user, name: 'Alice' })
    await app.getByTestId('financial-stats').waitFor()
    const before = await api<WireStats>(stack, user, 'GET', '/stats/financial')
    expect(Number(before.total_locked)).toBeGreaterThanOrEqual(920.629)
    await expect.poll(() => shownCard(app)).toEqual(expectedCard(before))
    expect(await text(app.getByTestId('financial-stats').locator('dt').first())).toBe('Total locked')

    // Another user's bond: the backend's total grows; the card follows when the app is back in view.
    const other = nextUser()
    await makeMember(stack, other)
    await activeBond(stack, other, 1000.987, 30)
    const after = await api<WireStats>(stack, user, 'GET', '/stats/financial')
    expect(Number(after.total_locked)).toBeGreaterThan(Number(before.total_locked))
    await page.getByTestId('host-minimize').click()
    // The visibility refetch waits 10 s from the last one (spec §4): this wait is the rule under test.
    await new Promise((r) => setTimeout(r, VISIBILITY_REFETCH_MIN_MS + 500))
    await page.getByTestId('host-restore').click()
    await expect.poll(() => shownCard(app), { timeout: 10_000 }).toEqual(expectedCard(after))
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the dashboard on a wide screen', () => {
  it('puts the price beside the balances, actions and stats, and the bonds under them', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await activeBond(stack, user, 15.5, 30)
    const { app, page, errors } = await launch(stack, { user })
    await phone(page, 1280)
    await app.getByTestId('financial-stats').locator('dd').first().waitFor()
    await app.getByTestId('mints-list').waitFor()
    const box = async (testId: string) => (await app.getByTestId(testId).boundingBox())!
    const balances = await box('balance-main')
    const price = await box('price-card')
    const stats = await box('financial-stats')
    const bonds = await box('mints-list')
    expect(price.x).toBeGreaterThan(balances.x + balances.width)
    expect(stats.x).toBe(balances.x)
    expect(stats.y).toBeGreaterThan(balances.y + balances.height)
    expect(bonds.y).toBeGreaterThan(Math.max(stats.y + stats.height, price.y + price.height))
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the Russian dashboard on a phone', () => {
  // 390 px is an iPhone; 360 px the narrowest common Android phone.
  it.each([390, 360])('at %i px translates the chart intervals and keeps every balance and stats label whole on one line', async (width) => {
    const user = nextUser()
    await makeMember(stack, user, 'Алиса')
    await stack.server.admin.credit(user, '1250.75')
    await stack.server.admin.credit(user, '84.2', 'referral_balance')
    await stack.server.admin.credit(user, '18', 'task_balance')
    const { app, page, errors } = await launch(stack, { user, name: 'Алиса', lang: 'ru' })
    await phone(page, width)
    await app.getByTestId('financial-stats').locator('dd').first().waitFor()
    await expectText(app.getByTestId('balance-referral-amount'), '84.20')
    expect(await frameEval(app, () => innerWidth)).toBe(width)

    const intervals = await Promise.all(['5m', '30m', '1h', '4h', '1d'].map((i) => text(app.getByTestId(`interval-${i}`))))
    expect(intervals).toEqual(['5м', '30м', '1ч', '4ч', '1д'])

    await app.locator('html').evaluate(() => document.fonts.ready)
    const labels = await frameEval(app, () =>
      [...document.querySelectorAll<HTMLElement>('.card-balance__label, .stat__label')].map((el) => {
        const range = document.createRange()
        range.selectNodeContents(el)
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
        const lineHeight = parseFloat(getComputedStyle(el).lineHeight)
        return {
          text: el.textContent,
          lines: lines.size,
          oneLineHigh: el.getBoundingClientRect().height < lineHeight * 1.5,
          // Not cut off with an ellipsis either: the whole label is shown.
          whole: el.scrollWidth <= el.clientWidth,
        }
      }),
    )
    expect(labels.map((l) => l.text)).toEqual(
      expect.arrayContaining(['Основной баланс', 'Реферальный баланс', 'Баланс заданий', 'Всего заблокировано', 'Коллективный бонус']),
    )
    expect(labels.filter((l) => l.lines !== 1 || !l.oneLineHigh || !l.whole)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})

/** Every language, each the way its Telegram client names it (language_code). */
const LANGUAGE_CODES = { en: 'en', ru: 'ru', uk: 'uk', es: 'es', 'pt-BR': 'pt-br', id: 'id', tr: 'tr', fa: 'fa' } as const satisfies Record<Language, string>

describe('every language on a phone', () => {
  // One launch per language: the five tabs, each at 390 px (an iPhone) and 360 px (the narrowest common Android phone).
  it.each(LANGUAGES)('%s: its own words on every tab, no label wrapped or cut off at 390 and 360 px, the page never wider than the phone', async (language) => {
    const user = nextUser()
    await makeMember(stack, user)
    await stack.server.admin.credit(user, '1250.75')
    await stack.server.admin.credit(user, '84.2', 'referral_balance')
    await stack.server.admin.credit(user, '18', 'task_balance')
    await activeBond(stack, user, 12.5, 30)
    const { app, page, errors } = await launch(stack, { user, lang: LANGUAGE_CODES[language] })
    await app.getByTestId('financial-stats').locator('dd').first().waitFor()
    // The language's own words, and its direction, on the page.
    const { messages } = await catalogueOf(language)
    await expect.poll(() => tabLabels(app)).toEqual(['nav.bond', 'nav.staking', 'nav.dashboard', 'nav.referral', 'nav.tasks'].map((k) => messages[k as MessageKey]))
    expect(await frameEval(app, () => [document.documentElement.lang, document.documentElement.dir])).toEqual([language, directionOf(language)])
    // Each language its own chunk: the JS loaded up to the dashboard holds this language's words and no other's (English, the entry's, aside).
    const scripts = await frameEval(app, () => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\.js(\?|$)/.test(n)))
    const code = (await Promise.all(scripts.map((url) => page.request.get(url).then((r) => r.text())))).join('\n')
    const escaped = (t: string) => [...t].map((c) => (c.charCodeAt(0) > 127 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')
    for (const other of LANGUAGES.filter((l) => l !== 'en')) {
      const words = (await catalogueOf(other)).messages['failed.body']
      expect(code.includes(words) || code.toLowerCase().includes(escaped(words).toLowerCase()), `${other}'s words in ${language}'s JS`).toBe(other === language)
    }

    const tabs = [
      ['tab-dashboard', 'screen-dashboard'],
      ['tab-bond', 'screen-bond'],
      ['tab-staking', 'screen-staking'],
      ['tab-referral', 'screen-referral'],
      ['tab-tasks', 'screen-tasks'],
    ] as const
    const faults: unknown[] = []
    for (const width of [390, 360]) {
      await phone(page, width)
      for (const [tab, screen] of tabs) {
        await app.getByTestId(tab).click()
        await app.getByTestId(screen).waitFor()
        await app.locator('html').evaluate(() => document.fonts.ready)
        faults.push(...(await labelFaults(app)).map((f) => ({ width, screen, ...f })))
        if (!(await frameEval(app, () => document.documentElement.scrollWidth <= innerWidth))) faults.push({ width, screen, scrollsSideways: true })
      }
    }
    expect(faults).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('what the dashboard waits for', () => {
  it('asks for the other screens’ texts only after the dashboard has appeared', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await activeBond(stack, user, 12.5, 30)
    const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    // The moment the dashboard is in the app's DOM, recorded in its frame (a mutation observer runs
    // right after React's commit, before anything the dashboard starts once it has painted).
    await page.addInitScript({
      content: `new MutationObserver((_, obs) => {
        if (document.querySelector('[data-testid="screen-dashboard"]')) { window.__dashboardAt = performance.now(); obs.disconnect() }
      }).observe(document, { childList: true, subtree: true })`,
    })
    const { app, errors } = await launch(stack, { user, page, version: '8.0' })
    await app.getByTestId('screen-dashboard').waitFor()
    const scripts = () =>
      frameEval(app, () => {
        const at = (window as unknown as { __dashboardAt?: number }).__dashboardAt ?? Infinity
        return performance
          .getEntriesByType('resource')
          .filter((e) => /\.js(\?|$)/.test(e.name))
          .map((e) => ({ file: new URL(e.name).pathname.replace(/^.*\//, ''), before: e.startTime <= at }))
      })
    // The texts of the screens beyond the dashboard (a chunk per language, `-screens`): none of the
    // JS asked for before it appeared, and asked for once it has (the platform's parts use them).
    expect((await scripts()).filter((s) => s.before && /^[a-z-]+-screens-/.test(s.file))).toEqual([])
    await expect.poll(async () => (await scripts()).filter((s) => /^en-screens-/.test(s.file)).length).toBe(1)
    expect(errors).toEqual([])
    await page.close()
  })
})

/** A language's catalogue as its own files hold it. */
const catalogueOf = (language: Language): Promise<{ messages: Readonly<Record<MessageKey, string>> }> => catalogueFiles(language)

/**
 * The labels on screen that wrap onto a second line or are cut off: the tabs, the balances' and
 * the stats' labels, every button, form label, section title, table heading and key of a summary.
 * (Sentences, a subtitle or a hint, may wrap.)
 */
const labelFaults = (app: FrameLocator) =>
  frameEval(app, () =>
    [
      ...document.querySelectorAll<HTMLElement>(
        '.tab__label, .card-balance__label, .stat__label, button, .btn, .pill-btn, .field__label, .section__title, th, .kv__label, [role="tab"], [role="radio"]',
      ),
    ]
      .filter((el) => el.getClientRects().length > 0 && (el.textContent ?? '').trim() !== '')
      .flatMap((el) => {
        // The text's own line boxes (an icon beside it is no line): tops more than half a line apart are two lines.
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
        const tops: number[] = []
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.textContent?.trim()) continue
          const range = document.createRange()
          range.selectNodeContents(node)
          for (const r of range.getClientRects()) if (r.width > 0) tops.push(r.top)
        }
        const style = getComputedStyle(el)
        const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.3
        const wrapped = tops.length > 0 && Math.max(...tops) - Math.min(...tops) > lineHeight / 2
        // Cut off (clipped, or spilling out of its box over its neighbours): the text reaches past the box that holds it.
        let holder: HTMLElement = el
        while (holder.clientWidth === 0 && holder.parentElement) holder = holder.parentElement
        const all = document.createRange()
        all.selectNodeContents(el)
        const [textBox, box] = [all.getBoundingClientRect(), holder.getBoundingClientRect()]
        const cut = el.scrollWidth > el.clientWidth + 1 || textBox.left < box.left - 1 || textBox.right > box.right + 1
        return wrapped || cut ? [{ label: (el.textContent ?? '').replace(/\s+/g, ' ').trim(), wrapped, cut }] : []
      }),
  )
