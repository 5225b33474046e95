import { describe, expect, it } from 'vitest'
import { WalletState } from '../../../ui/state/wallet-state.ts'
import { ACCOUNT } from '../../core/fakes/scripted-wallet.ts'
import { stateHarness, toastTexts } from './harness.ts'

const walletOver = (h: ReturnType<typeof stateHarness>) => new WalletState(h.uc, { notifier: h.toasts, platform: h.platform })

describe('WalletState restoring', () => {
  it('keeps the connect button busy while the wallet widget loads, then shows the restored wallet', async () => {
    const h = stateHarness()
    h.wallet.loadMs = 30
    h.wallet.scriptRestore(ACCOUNT)
    const wallet = walletOver(h)

    const restoring = wallet.restore()
    expect(wallet.isRestoring).toBe(true)
    await restoring

    expect(wallet.isRestoring).toBe(false)
    expect(wallet.isConnected).toBe(true)
    expect(wallet.shortAddress).not.toBeNull()
    expect(toastTexts(h)).toEqual([])
  })

  it("a wallet widget that cannot load ends restoring with 'Provider is not restored', and connecting still works", async () => {
    const h = stateHarness()
    h.wallet.loadOutcome = 'fails'
    h.wallet.scriptRestore(ACCOUNT)
    const wallet = walletOver(h)

    await wallet.restore()

    expect(wallet.isRestoring).toBe(false)
    expect(wallet.isConnected).toBe(false)
    expect(toastTexts(h)).toEqual(['Provider is not restored'])
    expect(h.platform.haptics).toEqual(['error'])
    expect(h.wallet.forgotten).toBe(0)
    expect(await wallet.connect()).toBe(true)
    expect(wallet.isConnected).toBe(true)
  })

  it('nothing stored: no wallet and no toast', async () => {
    const h = stateHarness()
    h.wallet.scriptRestore(null)
    const wallet = walletOver(h)

    await wallet.restore()

    expect(wallet.isRestoring).toBe(false)
    expect(wallet.isConnected).toBe(false)
    expect(toastTexts(h)).toEqual([])
  })
})
