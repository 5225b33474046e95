import { Effect, Fiber } from 'effect'
import { TestClock } from 'effect/testing'
import { describe, expect, it } from 'vitest'
import { NetworkError, RequestRejected, ServerFailed, userMessage, type WalletBoundElsewhere } from '../../../core/index.ts'
import { connectWallet } from '../../../core/use-cases/connect-wallet.ts'
import { restoreWallet } from '../../../core/use-cases/restore-wallet.ts'
import { useCasesOver } from '../fakes/use-cases.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { failure, onTestClock, succeed } from '../fakes/run.ts'
import { ACCOUNT, proofOf, ScriptedWallet } from '../fakes/scripted-wallet.ts'

/**
 * Runs restoreWallet on the test clock up to `deadlineMs`: what it had done 1 ms before (finished?
 * attempts, forgotten) and what it answered at the deadline.
 */
const restoreUntil = (wallet: ScriptedWallet, deadlineMs: number) =>
  onTestClock(
    Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(restoreWallet({ wallet }))
      yield* TestClock.adjust(`${deadlineMs - 1} millis`)
      const before = { done: fiber.pollUnsafe() !== undefined, attempts: wallet.restoreAttempts, forgotten: wallet.forgotten }
      yield* TestClock.adjust('1 millis')
      return { before, account: yield* Fiber.join(fiber) }
    }),
  )

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

    const seen = await restoreUntil(wallet, 12000)

    expect(seen.before).toEqual({ done: false, attempts: 6, forgotten: 0 })
    expect(seen.account).toBeNull()
    expect(wallet.forgotten).toBe(1)
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
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet }))
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

  it('gives up 12 s after the widget is ready, not 12 s after the start, and forgets the connection', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.loadMs = 20_000
    wallet.scriptRestore('fails')

    const seen = await restoreUntil(wallet, 32000)

    expect(seen.before).toEqual({ done: false, attempts: 6, forgotten: 0 })
    expect(seen.account).toBeNull()
    expect(wallet.forgotten).toBe(1)
  })

  it('abandons a restore still unanswered 12 s after the widget is ready, and forgets the connection', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.loadMs = 5_000
    wallet.restoreMs = 30_000
    wallet.scriptRestore(ACCOUNT)

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet }))
        yield* TestClock.adjust('16999 millis')
        const doneBefore = fiber.pollUnsafe() !== undefined
        yield* TestClock.adjust('1 millis')
        const account = yield* Fiber.join(fiber)
        yield* TestClock.adjust('30 seconds')
        return { doneBefore, account }
      }),
    )

    expect(seen).toEqual({ doneBefore: false, account: null })
    expect(wallet.restoreAttempts).toBe(1)
    expect(wallet.forgotten).toBe(1)
    expect(wallet.account()).toBeNull()
  })

  it('a widget that fails to load ends in WalletRestoreFailed at once, without trying or forgetting the stored connection', async () => {
    const wallet = new ScriptedWallet(null)
    wallet.loadMs = 3_000
    wallet.loadOutcome = 'fails'
    wallet.scriptRestore(ACCOUNT)

    const error = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(Effect.flip(restoreWallet({ wallet })))
        yield* TestClock.adjust('3 seconds')
        return yield* Fiber.join(fiber)
      }),
    )

    expect(error).toMatchObject({ _tag: 'WalletRestoreFailed' })
    expect(userMessage(error)).toBe('Provider is not restored')
    expect(wallet.restoreAttempts).toBe(0)
    expect(wallet.forgotten).toBe(0)
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

    await succeed(useCasesOver({ wallet }).disconnectWallet())
    expect(wallet.account()).toBeNull()
    expect(await failure(useCasesOver({ wallet }).disconnectWallet())).toMatchObject({ _tag: 'WalletNotConnectedToDisconnect' })
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
