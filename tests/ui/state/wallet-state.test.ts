import { Effect } from 'effect'
import { describe, expect, it, vi } from 'vitest'
import { type HttpResponse, makeHttpAxiomApi, useCases, withErrorPolicy } from '../../../core/index.ts'
import { WalletState } from '../../../ui/features/wallet/wallet-state.ts'
import { answer, FakeHttpTransport, ok, type Reply } from '../../core/fakes/fake-http-transport.ts'
import { MemorySessionStore } from '../../core/fakes/memory-stores.ts'
import { ACCOUNT } from '../../core/fakes/scripted-wallet.ts'
import { stateHarness, toastTexts } from './harness.ts'

const walletOver = (h: ReturnType<typeof stateHarness>) => new WalletState(h.uc)

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

  it("a wallet widget that never loads ends restoring with 'Connection restoring was aborted', keeps the stored connection, and connecting still works", async () => {
    const h = stateHarness()
    h.wallet.loadOutcome = 'fails'
    h.wallet.scriptRestore(ACCOUNT)
    const wallet = walletOver(h)

    // Six tries, 2 s apart, on fake timers.
    vi.useFakeTimers()
    try {
      const restoring = wallet.restore()
      await vi.advanceTimersByTimeAsync(11_000)
      await restoring
    } finally {
      vi.useRealTimers()
    }

    expect(wallet.isRestoring).toBe(false)
    expect(wallet.isConnected).toBe(false)
    expect(toastTexts(h)).toEqual(['Connection restoring was aborted'])
    expect(h.platform.haptics).toEqual(['error'])
    expect(h.wallet.forgotten).toBe(0)
    expect(h.wallet.abandoned).toBe(1)
    expect(await wallet.connect()).toBe(true)
    expect(wallet.isConnected).toBe(true)
  })

  it("a stored connection the wallet refused ends restoring with 'Provider is not restored' and is removed", async () => {
    const h = stateHarness()
    h.wallet.scriptRestore('refused')
    const wallet = walletOver(h)

    await wallet.restore()

    expect(wallet.isConnected).toBe(false)
    expect(toastTexts(h)).toEqual(['Provider is not restored'])
    expect(h.wallet.forgotten).toBe(1)
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

describe('WalletState connecting a wallet the backend will not bind', () => {
  /** The wallet state over the real HTTP API client, whose backend answers the bind with `reply`. */
  const overHttp = (reply: Reply) => {
    const h = stateHarness()
    h.wallet.forgetStoredConnection()
    const http = new FakeHttpTransport()
      .on('POST /wallet/ton-proof/payload', ok({ payload: 'payload-1' }))
      .on('POST /wallet/ton-proof/check', reply)
    const api = makeHttpAxiomApi({ http, session: new MemorySessionStore({ auth_token: 't' }) })
    const uc = withErrorPolicy(useCases({ ...h.ports, api }), { notifier: h.toasts, platform: h.platform })
    const wallet = new WalletState(uc)
    return { h, http, wallet }
  }

  it('already bound to another account (409): ends disconnected, with one clear message and the error haptic', async () => {
    const { h, http, wallet } = overHttp(answer(409, 'This wallet is already bound to another account'))

    expect(await wallet.connect()).toBe(false)

    expect(http.requestsTo('POST /wallet/ton-proof/check')).toHaveLength(1)
    expect(wallet.isConnected).toBe(false)
    expect(wallet.shortAddress).toBeNull()
    expect(h.wallet.account()).toBeNull()
    expect(toastTexts(h)).toEqual(['This wallet is linked to another AXIOM account, so it was disconnected. Connect a wallet of your own.'])
    expect(h.platform.haptics).toEqual(['error'])
  })

  it('a refused proof (400): disconnected, one message', async () => {
    const { h, wallet } = overHttp(answer(400, 'Invalid proof: Proof is too old'))

    expect(await wallet.connect()).toBe(false)

    expect(wallet.isConnected).toBe(false)
    expect(toastTexts(h)).toEqual(['The wallet could not prove it is yours, so it was disconnected. Connect it again.'])
    expect(h.platform.haptics).toEqual(['error'])
  })

  it('while the backend checks the wallet it does not count as connected, so nothing can be bought with it yet', async () => {
    let release: (r: HttpResponse) => void = () => {}
    const answered = new Promise<HttpResponse>((r) => (release = r))
    const { h, wallet } = overHttp(() => Effect.promise(() => answered))

    const connecting = wallet.connect()
    await new Promise((r) => setTimeout(r, 10))
    expect(h.wallet.account()).not.toBeNull() // the wallet app said yes…
    expect(wallet.isConnected).toBe(false) // …but the backend has not bound it yet
    release(answer(409, 'This wallet is already bound to another account'))
    expect(await connecting).toBe(false)
    expect(wallet.isConnected).toBe(false)
  })

  it('bound: connected, and nothing to say', async () => {
    const { h, wallet } = overHttp(ok({ wallet_address: 'UQCrq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq7Bz' }))

    expect(await wallet.connect()).toBe(true)

    expect(wallet.isConnected).toBe(true)
    expect(toastTexts(h)).toEqual([])
    expect(h.platform.haptics).toEqual([])
  })
})
