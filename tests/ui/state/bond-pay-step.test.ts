import { when } from 'mobx'
import { describe, expect, it } from 'vitest'
import { useCases, withErrorPolicy } from '../../../core/index.ts'
import { BondsState } from '../../../ui/features/bonds/bonds-state.ts'
import { type SignOutcome } from '../../core/fakes/scripted-wallet.ts'
import { stateHarness, toastTexts } from './harness.ts'

/**
 * The bond form's pay step when the wallet fails or stays silent: the view model says it is checking,
 * takes the watcher's word (a live `user:mint` active) or the bond list's as the purchase's success,
 * and says "Transaction was not sent" only at the end of the transaction's window. The use cases are
 * bound with a window of 1 s (the app's config), so the tests wait real time for it.
 */
const setup = (outcome: SignOutcome) => {
  const h = stateHarness()
  h.wallet.signOutcome = outcome
  const address = h.wallet.account()!.address
  // A payment that goes out moves the wallet's balance, which ends the purchase's balance watch.
  h.wallet.onSigned = () => h.chain.setBalance(address, 4_000_000_000n)
  const uc = withErrorPolicy(useCases({ ...h.ports, transactionValiditySeconds: 1 }), { notifier: h.toasts, platform: h.platform, background: h.background })
  const bonds = new BondsState(uc, h.ticker, h.toasts, (k) => h.platform.haptic(k))
  return { h, bonds }
}

describe('the pay step in the bonds view model', () => {
  it('a wallet that sent and then failed: "checking", then the live bond is the purchase\'s success, with "New Bond created" and no error', async () => {
    const { h, bonds } = setup('sends-then-fails')
    const buying = bonds.bondList.buy(100, 30)
    await when(() => bonds.bondList.payChecking)
    expect(bonds.bondList.isSaving).toBe(true)
    expect(toastTexts(h)).toEqual([])
    bonds.applyLiveMint({ ...bonds.bondList.mints[0]!, status: 'active' })

    expect(await buying).toMatchObject({ balanceChanged: true })
    expect(bonds.bondList.payChecking).toBe(false)
    expect(toastTexts(h)).toEqual(['New Bond created'])
    expect(h.platform.haptics).not.toContain('error')
    expect(bonds.bondList.mints.map((m) => m.status)).toEqual(['active'])
  }, 30_000)

  it('a wallet that failed with nothing sent: "checking" until the window ends, then "Transaction was not sent" and no pending bond', async () => {
    const { h, bonds } = setup('fails')
    const started = Date.now()
    const buying = bonds.bondList.buy(100, 30)
    await when(() => bonds.bondList.payChecking)

    expect(await buying).toBeNull()
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(bonds.bondList.payChecking).toBe(false)
    expect(bonds.bondList.isSaving).toBe(false)
    expect(toastTexts(h)).toEqual(['Transaction was not sent'])
    expect(h.platform.haptics).toContain('error')
    expect(bonds.bondList.mints.filter((m) => m.status === 'pending')).toEqual([])
  }, 30_000)

  it('a declined payment is told at once, with no checking', async () => {
    const { h, bonds } = setup('rejects')
    const started = Date.now()
    expect(await bonds.bondList.buy(100, 30)).toBeNull()
    expect(Date.now() - started).toBeLessThan(900)
    expect(toastTexts(h)).toEqual(['Transaction was not sent'])
  })

  it('a silent wallet, the user back in view with the bond paid (its live event lost): the list says so, the purchase succeeds and the bond is announced once', async () => {
    const { h, bonds } = setup('silent')
    const buying = bonds.bondList.buy(100, 30)
    // The wallet has been asked (the user is in it now).
    while (h.wallet.transactions.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    await new Promise((resolve) => setTimeout(resolve, 20))
    h.platform.setVisible(false)
    // Approved in the wallet meanwhile: the payment left the wallet and the backend credited it.
    h.chain.setBalance(h.wallet.account()!.address, 4_000_000_000n)
    h.api.mintList = h.api.mintList.map((m) => ({ ...m, status: 'active' as const }))
    h.platform.setVisible(true)

    const purchase = await buying
    expect(purchase?.mint.status).toBe('active')
    expect(toastTexts(h)).toEqual(['New Bond created'])
    expect(bonds.bondList.mints.map((m) => m.status)).toEqual(['active'])
    // Its live event arriving late says nothing more.
    bonds.applyLiveMint({ ...bonds.bondList.mints[0]! })
    expect(toastTexts(h)).toEqual(['New Bond created'])
  }, 30_000)
})
