import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy } from '../../deploy/security-headers.ts'
import { connectDevWallet, frameEval, nextUser } from './helpers.ts'
import { activeBond, launch, useStack } from './stack.ts'

/**
 * The app under the Content-Security-Policy it ships with (deploy/security-headers.ts): vite preview
 * sends the `local` policy, which differs from production's only in admitting 127.0.0.1 and localhost
 * (the emulator that frames the app, the local chain and bridge). Every violation the browser reports
 * in the app's frame (its `securitypolicyviolation` events, and the console's "Refused to …" lines) is
 * collected while the user walks every tab, opens the wallet modal (TON Connect UI: its injected styles,
 * the wallets list, their icons) and connects the dev wallet.
 */

const stack = useStack({ ton: true })

describe('the Content-Security-Policy', () => {
  it('is sent with the app, and nothing the app does in any tab or the wallet modal violates it', async () => {
    const user = nextUser()
    await activeBond(stack, user, 100)
    const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    const policies: string[] = []
    page.on('response', (r) => {
      if (r.request().resourceType() === 'document' && r.url().startsWith(stack.appUrl)) policies.push(r.headers()['content-security-policy'] ?? '(none)')
    })
    const refused: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text())
    })
    // Every frame (the app's among them) collects the browser's violation reports from its document's start.
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { __cspViolations: string[] }).__cspViolations = seen
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`))
    })
    const { app, errors } = await launch(stack, { user, name: 'Cecile', page })
    await app.getByTestId('tab-dashboard').waitFor()
    for (const [tab, screen] of [
      ['tab-bond', 'screen-bond'],
      ['tab-staking', 'screen-staking'],
      ['tab-referral', 'screen-referral'],
      ['tab-tasks', 'screen-tasks'],
      ['tab-dashboard', 'screen-dashboard'],
    ] as const) {
      await app.getByTestId(tab).click()
      await app.getByTestId(screen).waitFor()
    }
    // The wallet modal: TON Connect UI's styles, the wallets list, the icons; then the dev wallet's tab.
    await connectDevWallet(page, app)

    expect(policies.length).toBeGreaterThan(0)
    expect(new Set(policies)).toEqual(new Set([contentSecurityPolicy('local')]))
    const violations = await frameEval(app, () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? ['(no collector)'])
    expect(violations).toEqual([])
    expect(refused).toEqual([])
    expect(errors).toEqual([])
  })
})
