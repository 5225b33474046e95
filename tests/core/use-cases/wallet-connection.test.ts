import { Effect, Fiber, type Result } from 'effect'
import { TestClock } from 'effect/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  NetworkError,
  RequestRejected,
  ServerFailed,
  userMessage,
  type WalletAccount,
  type WalletBoundElsewhere,
  type WalletRestoreAborted,
  type WalletRestoreFailed,
} from '../../../core/index.ts'
import { connectWallet } from '../../../core/use-cases/connect-wallet.ts'
import { pageRunningFor, restoreWallet } from '../../../core/use-cases/restore-wallet.ts'
import { useCasesOver } from '../fakes/use-cases.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { failure, onTestClock, succeed } from '../fakes/run.ts'
import { FixedClock } from '../fakes/fixed-clock.ts'
import { ACCOUNT, proofOf, ScriptedWallet } from '../fakes/scripted-wallet.ts'

const clock = new FixedClock()

/** What a restore ended with: the account (or null), or the text the user reads. */
const outcomeOf = (r: Result.Result<WalletAccount | null, WalletRestoreFailed | WalletRestoreAborted>) =>
  r._tag === 'Success' ? { account: r.success } : { error: userMessage(r.failure) }

/**
 * Runs restoreWallet on the test clock up to `deadlineMs`: what it had done 1 ms before (finished?
 * attempts, forgotten, abandoned) and how it ended at the deadline.
 */
const restoreUntil = (wallet: ScriptedWallet, deadlineMs: number) =>
  onTestClock(
    Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(Effect.result(restoreWallet({ wallet, clock })))
      yield* TestClock.adjust(`${deadlineMs - 1} millis`)
      const before = { done: fiber.pollUnsafe() !== undefined, attempts: wallet.restoreAttempts, forgotten: wallet.forgotten, abandoned: wallet.abandoned }
      yield* TestClock.adjust('1 millis')
      return { before, ...outcomeOf(yield* Fiber.join(fiber)) }
    }),
  )

describe('restoreWallet', () => {
  it('answers null at once when nothing is stored, and forgets nothing', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.scriptRestore(null)

    expect(await succeed(restoreWallet({ wallet, clock }))).toBeNull()
    expect(wallet.restoreAttempts).toBe(1)
    expect(wallet.forgotten).toBe(0)
  })

  it('retries every 2 s until the connection comes back', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.scriptRestore('fails', 'fails', ACCOUNT)

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet, clock }))
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

  it("abandons restoring after 12 s without an answer: 'Connection restoring was aborted', and the stored connection is kept for the next start", async () => {
    const wallet = new ScriptedWallet(null)
    wallet.scriptRestore('fails')

    const seen = await restoreUntil(wallet, 12000)

    expect(seen.before).toEqual({ done: false, attempts: 6, forgotten: 0, abandoned: 0 })
    expect(seen.error).toBe('Connection restoring was aborted')
    expect(wallet.abandoned).toBe(1)
    expect(wallet.forgotten).toBe(0)
  })

  it("a definite refusal from the wallet or bridge ends restoring at once, removes the stored connection: 'Provider is not restored'", async () => {
    const wallet = new ScriptedWallet(null)
    wallet.scriptRestore('fails', 'refused', ACCOUNT)

    const seen = await restoreUntil(wallet, 2001)

    expect(seen.before).toMatchObject({ done: true, attempts: 2, forgotten: 1 })
    expect(seen.error).toBe('Provider is not restored')
    expect(wallet.restoreAttempts).toBe(2)
    expect(wallet.abandoned).toBe(0)
  })

  it('a page that stalls for 8 s while restoring does not spend the 12 s: the wallet that answers at 15 s is restored', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.restoreMs = 15_000
    wallet.scriptRestore(ACCOUNT)
    const stalling = new FixedClock()

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(Effect.result(restoreWallet({ wallet, clock: stalling })))
        yield* TestClock.adjust('2 seconds')
        // The page freezes for 8 s (Telegram in the background): the clock moves on, and the timers due meanwhile fire late, at once.
        stalling.advance(8_000)
        yield* TestClock.adjust('8 seconds')
        yield* TestClock.adjust('4999 millis')
        const doneBefore15s = fiber.pollUnsafe() !== undefined
        yield* TestClock.adjust('1 millis')
        return { doneBefore15s, ...outcomeOf(yield* Fiber.join(fiber)) }
      }),
    )

    expect(seen).toEqual({ doneBefore15s: false, account: ACCOUNT })
    expect(wallet.forgotten).toBe(0)
    expect(wallet.abandoned).toBe(0)
  })

  it('with the same restore and no stall, gives up at 12 s and keeps the stored connection', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.restoreMs = 15_000
    wallet.scriptRestore(ACCOUNT)

    const seen = await restoreUntil(wallet, 12000)

    expect(seen.before.done).toBe(false)
    expect(seen.error).toBe('Connection restoring was aborted')
    expect(wallet.forgotten).toBe(0)
    expect(wallet.abandoned).toBe(1)
  })
})

describe('pageRunningFor (restoring\'s 12 s count the time the page ran)', () => {
  it('a page that never stalls waits exactly 12 s; stalls only lengthen the wait, by at most the time stalled', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5_000 })), { maxLength: 60 }), async (stalls) => {
        const pageClock = new FixedClock()
        const elapsed = await onTestClock(
          Effect.gen(function* () {
            const fiber = yield* Effect.forkChild(pageRunningFor(pageClock, 12_000))
            let ms = 0
            for (let i = 0; fiber.pollUnsafe() === undefined; i++) {
              // Each 250 ms of timers, the page may freeze on top: the clock port sees the freeze, the timers do not.
              pageClock.advance(250 + (stalls[i] ?? 0))
              yield* TestClock.adjust('250 millis')
              ms += 250
            }
            return ms
          }),
        )
        const stalled = stalls.reduce((a, b) => a + b, 0)
        expect(elapsed).toBeGreaterThanOrEqual(12_000)
        expect(elapsed).toBeLessThanOrEqual(12_000 + stalled + 250)
        if (stalled === 0) expect(elapsed).toBe(12_000)
      }),
      { numRuns: 40 },
    )
  })
})

describe('restoreWallet on a slow network (the widget loads after the first paint)', () => {
  it('a widget that takes 20 s to load, then restores within 1 s, keeps the connection', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.loadMs = 20_000
    wallet.restoreMs = 1_000
    wallet.scriptRestore(ACCOUNT)

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet, clock }))
        yield* TestClock.adjust('19999 millis')
        const attemptsWhileLoading = wallet.restoreAttempts
        yield* TestClock.adjust('1001 millis')
        return { attemptsWhileLoading, account: yield* Fiber.join(fiber) }
      }),
    )

    expect(seen).toEqual({ attemptsWhileLoading: 0, account: ACCOUNT })
    expect(wallet.forgotten).toBe(0)
    expect(wallet.account()).toEqual(ACCOUNT)
  })

  it('gives up 12 s after the widget is ready, not 12 s after the start, and keeps the stored connection', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.loadMs = 20_000
    wallet.scriptRestore('fails')

    const seen = await restoreUntil(wallet, 32000)

    expect(seen.before).toEqual({ done: false, attempts: 6, forgotten: 0, abandoned: 0 })
    expect(seen.error).toBe('Connection restoring was aborted')
    expect(wallet.forgotten).toBe(0)
    expect(wallet.abandoned).toBe(1)
  })

  it('a widget that fails to load is tried again every 2 s; loaded at the third try, the connection is restored', async () => {
    const wallet = new ScriptedWallet(null)
    let loads = 0
    const load = wallet.ready.bind(wallet)
    wallet.ready = () =>
      Effect.suspend(() => {
        wallet.loadOutcome = ++loads < 3 ? 'fails' : 'loads'
        return load()
      })
    wallet.scriptRestore(ACCOUNT)

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet, clock }))
        yield* TestClock.adjust('3999 millis')
        const before = { loads, attempts: wallet.restoreAttempts }
        yield* TestClock.adjust('1 millis')
        return { before, account: yield* Fiber.join(fiber) }
      }),
    )

    expect(seen).toEqual({ before: { loads: 2, attempts: 0 }, account: ACCOUNT })
    expect(wallet.forgotten).toBe(0)
  })

  it('a widget that never loads is tried 6 times, 2 s apart, then restoring is aborted and the stored connection kept', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.loadOutcome = 'fails'
    wallet.scriptRestore(ACCOUNT)

    const seen = await restoreUntil(wallet, 10000)

    expect(seen.before.done).toBe(false)
    expect(seen.error).toBe('Connection restoring was aborted')
    expect(wallet.restoreAttempts).toBe(0)
    expect(wallet.forgotten).toBe(0)
    expect(wallet.abandoned).toBe(1)
  })
})

describe('connecting and disconnecting', () => {
  it('connects, or passes on a declined connection', async () => {
    const wallet = new ScriptedWallet(null)

    expect(await succeed(connectWallet({ wallet }))).toEqual(ACCOUNT)
    wallet.connectOutcome = 'declines'
    expect(await failure(connectWallet({ wallet }))).toMatchObject({ _tag: 'WalletConnectionDeclined' })
  })

  it("disconnecting while not connected is an error: 'Wallet is not connected'", async () => {
    const wallet = new ScriptedWallet(ACCOUNT)

    await succeed(useCasesOver({ wallet }).disconnectWallet())
    expect(wallet.account()).toBeNull()
    const error = await failure(useCasesOver({ wallet }).disconnectWallet())
    expect(error).toMatchObject({ _tag: 'WalletNotConnectedToDisconnect' })
    expect(userMessage(error)).toBe('Wallet is not connected')
  })

  it("a disconnect the wallet does not take reads 'Disconnect was aborted'", async () => {
    const wallet = new ScriptedWallet(ACCOUNT)
    wallet.disconnectOutcome = 'aborted'

    const error = await failure(useCasesOver({ wallet }).disconnectWallet())
    expect(userMessage(error)).toBe('Disconnect was aborted')
  })
})

describe('connecting binds the wallet to the user (tonProof)', () => {
  it('fetches a payload, has the wallet sign it while connecting, and binds the proof', async () => {
    const wallet = new ScriptedWallet(null)
    const api = new FakeAxiomApi()
    api.tonProofPayloadValue = 'payload-42'

    const account = await succeed(connectWallet({ wallet, api }))

    expect(wallet.connectRequests).toEqual([{ tonProofPayload: 'payload-42' }])
    expect(account.address).toBe(ACCOUNT.address)
    expect(api.calls.map((c) => c.method)).toEqual(['tonProofPayload', 'bindWallet'])
    expect(api.callsTo('bindWallet')[0]!.input).toEqual({
      address: ACCOUNT.address,
      network: ACCOUNT.chain,
      public_key: 'cd'.repeat(32),
      proof: proofOf('payload-42'),
    })
    expect(api.boundWallet).toBe(ACCOUNT.address)
    expect(wallet.account()).toEqual(ACCOUNT)
  })

  it('connects without a proof when the payload call fails, and binds nothing', async () => {
    const wallet = new ScriptedWallet(null)
    const api = new FakeAxiomApi()
    api.failWith('tonProofPayload', new NetworkError({ cause: 'offline' }))

    expect(await succeed(connectWallet({ wallet, api }))).toEqual(ACCOUNT)

    expect(wallet.connectRequests).toEqual([undefined])
    expect(api.callsTo('bindWallet')).toHaveLength(0)
    expect(wallet.account()).toEqual(ACCOUNT)
  })

  it('binds nothing when the wallet answers without a proof', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.proofOutcome = 'omits'
    const api = new FakeAxiomApi()

    expect(await succeed(connectWallet({ wallet, api }))).toEqual(ACCOUNT)
    expect(wallet.connectRequests).toEqual([{ tonProofPayload: api.tonProofPayloadValue }])
    expect(api.callsTo('bindWallet')).toHaveLength(0)
  })

  it('a wallet bound to another account is refused: disconnected, and the failure says so', async () => {
    const wallet = new ScriptedWallet(null)
    const api = new FakeAxiomApi()
    api.failWith('bindWallet', new RequestRejected({ status: 409, msg: 'This wallet is already bound to another account' }))

    const error = await failure(connectWallet({ wallet, api }))

    expect(error).toMatchObject({ _tag: 'WalletBoundElsewhere' })
    expect(userMessage(error as WalletBoundElsewhere)).toBe(
      'This wallet is linked to another AXIOM account, so it was disconnected. Connect a wallet of your own.',
    )
    expect(wallet.account()).toBeNull()
    expect(api.boundWallet).toBeNull()
  })

  it('a refused proof, or a bind the backend could not answer, disconnects the wallet too', async () => {
    for (const [bindError, expected] of [
      [new RequestRejected({ status: 400, msg: 'Invalid proof: Proof is too old' }), { _tag: 'WalletNotVerified', msg: 'Invalid proof: Proof is too old' }],
      [new ServerFailed({ msg: 'Internal server error' }), { _tag: 'ServerFailed' }],
      [new NetworkError({ cause: 'offline' }), { _tag: 'NetworkError' }],
    ] as const) {
      const wallet = new ScriptedWallet(null)
      const api = new FakeAxiomApi()
      api.failWith('bindWallet', bindError)

      expect(await failure(connectWallet({ wallet, api }))).toMatchObject(expected)
      expect(api.callsTo('bindWallet')).toHaveLength(1)
      expect(wallet.account()).toBeNull()
    }
  })

  it('a declined connection binds nothing and fails as before', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.connectOutcome = 'declines'
    const api = new FakeAxiomApi()

    expect(await failure(connectWallet({ wallet, api }))).toMatchObject({ _tag: 'WalletConnectionDeclined' })
    expect(api.calls.map((c) => c.method)).toEqual(['tonProofPayload'])
  })
})
