import { Effect, Exit } from 'effect'
import { describe, expect, it } from 'vitest'
import { LazyWallet } from '../../adapters/ton/lazy-wallet.ts'
import type { Wallet, WalletAccount } from '../../core/index.ts'
import { restoreWallet } from '../../core/use-cases/restore-wallet.ts'
import { ACCOUNT, ScriptedWallet } from '../core/fakes/scripted-wallet.ts'
import { FixedClock } from '../core/fakes/fixed-clock.ts'

/** A gate the test opens, and a loader that counts its calls and can be made to fail. */
const harness = (wallet: Wallet) => {
  let open: () => void = () => undefined
  const gate = new Promise<void>((resolve) => (open = resolve))
  const loader = {
    calls: 0,
    fails: 0,
    load: async (): Promise<Wallet> => {
      loader.calls++
      if (loader.fails > 0) {
        loader.fails--
        throw new Error('the chunk did not load')
      }
      return wallet
    },
  }
  const lazy = new LazyWallet({ load: loader.load, gate: () => gate })
  return { lazy, loader, open }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('LazyWallet: the wallet port before its adapter has loaded', () => {
  it('loads nothing before the gate opens, then loads the adapter once', async () => {
    const { lazy, loader, open } = harness(new ScriptedWallet(null))
    await settle()
    expect(loader.calls).toBe(0)
    expect(lazy.account()).toBeNull()
    expect(lazy.maxMessages()).toBe(1)
    open()
    await settle()
    expect(loader.calls).toBe(1)
    await Effect.runPromise(lazy.ready())
    expect(loader.calls).toBe(1)
  })

  it('shows a restored connection: restoring through it answers the account, and its listeners hear it', async () => {
    const wallet = new ScriptedWallet(null, 4)
    wallet.scriptRestore(ACCOUNT)
    const { lazy, open } = harness(wallet)
    const heard: Array<WalletAccount | null> = []
    lazy.onAccountChange((a) => heard.push(a))
    open()
    const restored = await Effect.runPromise(restoreWallet({ wallet: lazy, clock: new FixedClock() }))
    expect(restored).toEqual(ACCOUNT)
    expect(heard).toEqual([ACCOUNT])
    expect(lazy.account()).toEqual(ACCOUNT)
    expect(lazy.maxMessages()).toBe(4)
  })

  it('loads on the first call that needs it, without waiting for the gate', async () => {
    const wallet = new ScriptedWallet(null)
    const { lazy, loader } = harness(wallet)
    const account = await Effect.runPromise(lazy.connect({ tonProofPayload: 'p' }))
    expect(loader.calls).toBe(1)
    expect(account.address).toBe(ACCOUNT.address)
    expect(wallet.connectRequests).toEqual([{ tonProofPayload: 'p' }])
  })

  it('fails a call whose load failed as the adapter fails when its widget does not load, and tries again next time', async () => {
    const { lazy, loader } = harness(new ScriptedWallet(null))
    loader.fails = 1
    const ready = await Effect.runPromiseExit(lazy.ready())
    expect(Exit.isFailure(ready) && JSON.stringify(ready.cause)).toContain('WalletRestoreFailed')
    expect(Exit.isFailure(ready) && JSON.stringify(ready.cause)).not.toContain('"definite":true')
    await Effect.runPromise(lazy.ready())
    expect(loader.calls).toBe(2)
  })

  it('says not connected to a disconnect before the adapter has loaded, without loading it', async () => {
    const { lazy, loader } = harness(new ScriptedWallet())
    const exit = await Effect.runPromiseExit(lazy.disconnect())
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain('WalletNotConnectedToDisconnect')
    expect(loader.calls).toBe(0)
  })

  it('keeps giving up on restoring until the adapter has loaded, then tells it', async () => {
    const wallet = new ScriptedWallet(null)
    const { lazy, open } = harness(wallet)
    lazy.abandonRestore()
    lazy.forgetStoredConnection()
    expect(wallet.abandoned).toBe(0)
    open()
    await settle()
    expect(wallet.abandoned).toBe(1)
    expect(wallet.forgotten).toBe(1)
    lazy.abandonRestore()
    expect(wallet.abandoned).toBe(2)
  })

  it('forwards a transaction to the adapter', async () => {
    const wallet = new ScriptedWallet()
    const { lazy } = harness(wallet)
    const tx = { validUntil: 1_700_000_060, messages: [{ address: ACCOUNT.address, amount: '1000', comment: 'axiom:mint:1' }] }
    await Effect.runPromise(lazy.sendTransaction(tx))
    expect(wallet.transactions).toEqual([tx])
  })
})
