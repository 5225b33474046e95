import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Frame, FrameLocator, Page } from 'playwright-core'
import { expect } from 'vitest'
import { THEMES, type ColorScheme } from '../../stand-ins/telegram-host/themes.ts'

/** axe-core's browser build, evaluated in the app's frame (as a DevTools snippet would be: the app's CSP does not apply). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** WCAG 2.2 A and AA, and axe's best practices (landmarks, one top-level heading, …). */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/** The mini app's document inside the host's iframe. */
export const appFrame = async (page: Page): Promise<Frame> => {
  const frame = await (await page.waitForSelector('iframe')).contentFrame()
  if (!frame) throw new Error('the host has no app frame')
  return frame
}

export interface AxeFinding {
  readonly rule: string
  readonly impact: string
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: string; readonly summary: string }>
}

/**
 * Runs axe-core on the app's whole document (the screen, the bars, the toasts and any open modal)
 * and returns its violations. Text contrast is held to 4.5:1 at every size, large text included.
 */
export const axeViolations = async (page: Page): Promise<AxeFinding[]> => {
  const frame = await appFrame(page)
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE)
  return frame.evaluate(async (tags) => {
    interface AxeNode {
      target: string[]
      failureSummary?: string
    }
    interface Axe {
      _audit: { checks: Record<string, { options: Record<string, unknown> }> }
      configure(o: unknown): void
      run(ctx: Document, o: unknown): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: AxeNode[] }> }>
    }
    const axe = (window as unknown as { axe: Axe }).axe
    const contrast = axe._audit.checks['color-contrast']!
    axe.configure({
      checks: [{ id: 'color-contrast', options: { ...contrast.options, contrastRatio: { normal: { expected: 4.5 }, large: { expected: 4.5 } } } }],
    })
    type Violations = Awaited<ReturnType<Axe['run']>>['violations']
    const findings = (violations: Violations) =>
      violations.map((v) => ({
        rule: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300) })),
      }))
    const audit = async () => {
      const all = findings((await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })).violations)
      // axe leaves text on a gradient unchecked (it cannot tell which colour is behind it): the text
      // is checked again on each of the gradient's colours in turn, painted flat.
      const gradients = [...document.querySelectorAll<HTMLElement>('body *')].flatMap((el) => {
        const image = getComputedStyle(el).backgroundImage
        if (!image.includes('gradient(')) return []
        const stops = image.match(/(rgba?|color|oklch|oklab|lab|lch|hsla?)\([^()]*\)/g) ?? []
        return stops.length ? [{ el, stops, style: el.getAttribute('style') }] : []
      })
      const most = Math.max(0, ...gradients.map((g) => g.stops.length))
      const seen = new Set(all.flatMap((f) => f.nodes.map((n) => `${f.rule} ${n.target}`)))
      for (let i = 0; i < most; i++) {
        for (const g of gradients) g.el.style.setProperty('background', g.stops[Math.min(i, g.stops.length - 1)]!, 'important')
        try {
          const flat = await axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'] })
          for (const f of findings(flat.violations)) {
            const fresh = f.nodes.filter((n) => !seen.has(`${f.rule} ${n.target}`))
            for (const n of fresh) seen.add(`${f.rule} ${n.target}`)
            if (fresh.length) all.push({ ...f, nodes: fresh.map((n) => ({ ...n, target: `${n.target} (on its background gradient's colour ${i + 1})` })) })
          }
        } finally {
          for (const g of gradients) {
            if (g.style === null) g.el.removeAttribute('style')
            else g.el.setAttribute('style', g.style)
          }
        }
      }
      return all
    }
    // Under a modal the page lock (ui/lib/page-scroll-lock.ts) pins the body (position: fixed) and
    // hides the root's overflow: the root is then 0 px high, and axe takes everything in it, the
    // modal too, as clipped away (it would check no contrast there). For the run their overflow is
    // visible: with the body pinned, nothing moves.
    const unclipped = [document.documentElement, document.body]
      .filter((el) => getComputedStyle(el).overflow === 'hidden')
      .map((el) => ({ el, overflow: el.style.overflow }))
    for (const u of unclipped) u.el.style.overflow = 'visible'
    try {
      return await audit()
    } finally {
      for (const u of unclipped) u.el.style.overflow = u.overflow
    }
  }, AXE_TAGS)
}

/** The violations as lines a failing test prints: rule, impact, element, why. */
export const describeFindings = (where: string, findings: ReadonlyArray<AxeFinding>): string[] =>
  findings.flatMap((f) => f.nodes.map((n) => `${where}: ${f.rule} (${f.impact}) ${n.target}: ${n.summary || f.help}`))

/**
 * Waits until nothing on the app's page is in the middle of a finite animation (a screen sliding in,
 * a sheet rising): axe reads colours as painted, and a half-faded element reads as low contrast.
 */
export const quiet = async (page: Page): Promise<void> => {
  const frame = await appFrame(page)
  await expect
    .poll(
      () =>
        frame.evaluate(() =>
          document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity).length,
        ),
      { message: 'animations still running' },
    )
    .toBe(0)
}

/**
 * Switches the emulated Telegram client to `scheme`, as a user switching theme does: the host sends
 * theme_changed with that palette, and the app's CSS variables take it.
 */
export const useScheme = async (page: Page, scheme: ColorScheme): Promise<void> => {
  await page.evaluate((s) => {
    const select = document.getElementById('f-scheme') as HTMLSelectElement
    select.value = s
    select.dispatchEvent(new Event('change'))
  }, scheme)
  const frame = await appFrame(page)
  await expect
    .poll(() => frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--tg-theme-bg-color').trim().toLowerCase()))
    .toBe(THEMES[scheme].bg_color)
}

/** The controls a thumb taps: buttons, links, chips and segments (radios), inputs, tabs. */
const TARGETS =
  'button, a[href], input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [role="radio"], [role="checkbox"], [role="switch"], [role="menuitem"]'

/**
 * Every visible tap target the app shows now whose hit box is under `min`×`min` CSS px. The hit box
 * is measured by hit testing, as a tap is delivered: through the target's centre, how far across and
 * how far down a point still lands on the target (its padding, a ::before that enlarges it and its
 * children count; a neighbour or a bar lying over it does not). A visually hidden input is measured
 * by its label, which takes its taps. `within`: only the targets inside that element (an open
 * modal, the toasts), when the rest of the page lies under it.
 */
export const smallTargets = (app: FrameLocator, within = 'html', min = 44): Promise<string[]> =>
  app.locator(within).first().evaluate(
    (root, { selector, min }) => {
      const describe = (el: Element): string => {
        const id = el.getAttribute('data-testid')
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
        return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : el.className ? `.${String(el.className).split(' ')[0]}` : ''} '${name}'`
      }
      const out: string[] = []
      const scroller = document.scrollingElement
      const start = scroller?.scrollTop ?? 0
      for (const el of root.querySelectorAll(selector)) {
        if (!el.checkVisibility({ visibilityProperty: true })) continue
        const own = el.getBoundingClientRect()
        const label = own.width <= 1 || own.height <= 1 ? ((el as HTMLInputElement).labels?.[0] ?? null) : el
        if (!label) {
          out.push(`${describe(el)}: hidden, with no label to tap`)
          continue
        }
        label.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
        const box = label.getBoundingClientRect()
        const cx = box.left + box.width / 2
        const cy = box.top + box.height / 2
        const hits = (x: number, y: number): boolean => {
          const at = document.elementFromPoint(x, y)
          return at !== null && label.contains(at)
        }
        if (!hits(cx, cy)) {
          out.push(`${describe(el)}: its centre is covered by ${describe(document.elementFromPoint(cx, cy) ?? document.body)}`)
          continue
        }
        let left = cx
        let right = cx
        let top = cy
        let bottom = cy
        while (hits(left - 1, cy)) left -= 1
        while (hits(right + 1, cy)) right += 1
        while (hits(cx, top - 1)) top -= 1
        while (hits(cx, bottom + 1)) bottom += 1
        const width = Math.round(right - left + 1)
        const height = Math.round(bottom - top + 1)
        if (width < min || height < min) out.push(`${describe(el)}: ${width}×${height}`)
      }
      scroller?.scrollTo({ top: start, behavior: 'instant' })
      return out
    },
    { selector: TARGETS, min },
  )
