import { Effect, Fiber } from 'effect'
import { TestClock } from 'effect/testing'
import { describe, expect, it } from 'vitest'
import { connectWallet, disconnectWallet, restoreWallet } from '../../../core/index.ts'
import { failure, onTestClock, succeed } from '../fakes/run.ts'
import { ACCOUNT, ScriptedWallet } from '../fakes/scripted-wallet.ts'

describe('restoreWallet', () => {
  it('answers null at once when nothing is stored, and forgets nothing', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.scriptRestore(null)

    expect(await succeed(restoreWallet({ wallet }))).toBeNull()
    expect(wallet.restoreAttempts).toBe(1)
    expect(wallet.forgotten).toBe(0)
  })

  it('retries every 2 s until the connection comes back', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.scriptRestore('fails', 'fails', ACCOUNT)

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet }))
        yield* TestClock.adjust('1999 millis')
        const attemptsBefore2s = wallet.restoreAttempts
        yield* TestClock.adjust('1 millis')
        const attemptsAt2s = wallet.restoreAttempts
        yield* TestClock.adjust('2 seconds')
        return { attemptsBefore2s, attemptsAt2s, account: yield* Fiber.join(fiber) }
      }),
    )

    expect(seen).toEqual({ attemptsBefore2s: 1, attemptsAt2s: 2, account: ACCOUNT })
    expect(wallet.restoreAttempts).toBe(3)
    expect(wallet.forgotten).toBe(0)
    expect(wallet.account()).toEqual(ACCOUNT)
  })

  it('gives up after 12 s and forgets the stored connection', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.scriptRestore('fails')

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet }))
        yield* TestClock.adjust('11999 millis')
        const before = { done: fiber.pollUnsafe() !== undefined, attempts: wallet.restoreAttempts, forgotten: wallet.forgotten }
        yield* TestClock.adjust('1 millis')
        return { before, account: yield* Fiber.join(fiber) }
      }),
    )

    expect(seen.before).toEqual({ done: false, attempts: 6, forgotten: 0 })
    expect(seen.account).toBeNull()
    expect(wallet.forgotten).toBe(1)
  })
})

describe('connecting and disconnecting', () => {
  it('connects, or passes on a declined connection', async () => {
    const wallet = new ScriptedWallet(null)

    expect(await succeed(connectWallet({ wallet }))).toEqual(ACCOUNT)
    wallet.connectOutcome = 'declines'
    expect(await failure(connectWallet({ wallet }))).toMatchObject({ _tag: 'WalletConnectionDeclined' })
  })

  it('disconnecting while not connected is an error', async () => {
    const wallet = new ScriptedWallet(ACCOUNT)

    await succeed(disconnectWallet({ wallet }))
    expect(wallet.account()).toBeNull()
    expect(await failure(disconnectWallet({ wallet }))).toMatchObject({ _tag: 'WalletNotConnectedToDisconnect' })
  })
})
