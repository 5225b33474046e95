import { Effect, Fiber } from 'effect'
import { TestClock } from 'effect/testing'
import { describe, expect, it } from 'vitest'
import { type Mint, type PaymentWord, type PayOutcome, userMessage, type WalletTransaction } from '../../../core/index.ts'
import { payBond } from '../../../core/use-cases/pay-bond.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { FakePlatform } from '../fakes/fake-platform.ts'
import { FixedClock } from '../fakes/fixed-clock.ts'
import { aMint } from '../fakes/records.ts'
import { onTestClock } from '../fakes/run.ts'
import { ScriptedWallet, type SignOutcome } from '../fakes/scripted-wallet.ts'

const NOW_MS = 1_700_000_123_000
/** Valid for 60 s from now (spec §5). */
const TX: WalletTransaction = { validUntil: NOW_MS / 1000 + 60, messages: [{ address: `0:${'ee'.repeat(32)}`, amount: '1000000000', comment: 'axiom:mint:7' }] }

/**
 * The pay step over a scripted wallet, a bond list, a platform whose visibility the test moves, and the
 * watcher's word as the test gives it (`say`). Time is the TestClock's; `checking` counts what the
 * step told of its wait.
 */
const setup = (outcome: SignOutcome) => {
  const wallet = new ScriptedWallet()
  wallet.signOutcome = outcome
  const api = new FakeAxiomApi()
  const mint = aMint({ id: 7, status: 'pending' })
  api.mintList = [mint]
  const platform = new FakePlatform()
  const clock = new FixedClock(NOW_MS)
  let say: (word: PaymentWord) => void = () => {}
  let listening = false
  let abandoned = false
  const heard = (_: Mint, signal: AbortSignal) =>
    new Promise<PaymentWord>((resolve) => {
      listening = true
      say = resolve
      signal.addEventListener('abort', () => (abandoned = true))
    })
  let checking = 0
  const visibility = { subscribed: 0, unsubscribed: 0 }
  const watched = {
    onVisibilityChange: (listener: (visible: boolean) => void) => {
      visibility.subscribed++
      const off = platform.onVisibilityChange(listener)
      return () => (visibility.unsubscribed++, off())
    },
  }
  const pay = () => payBond({ wallet, api, clock, platform: watched })(mint, TX, { heard, onChecking: () => checking++ })
  return {
    wallet,
    api,
    platform,
    mint,
    pay,
    visibility,
    say: (word: PaymentWord) => say(word),
    get checking() {
      return checking
    },
    get listening() {
      return listening
    },
    get abandoned() {
      return abandoned
    },
    /** Bond-list reads so far. */
    reads: () => api.callsTo('mints').length,
  }
}

type Done = { readonly outcome: PayOutcome } | { readonly error: { readonly _tag: string } }

/** Forks the step; `script` moves time and visibility, reading (`at`) whether it is done at each point. */
const run = (s: ReturnType<typeof setup>, script: (at: () => Effect.Effect<Done | null>) => Effect.Effect<unknown, never>) =>
  onTestClock(
    Effect.gen(function* () {
      // Started at once: the step listens (to the platform, the watcher) before the script moves anything.
      const fiber = yield* Effect.forkChild(
        s.pay().pipe(Effect.match({ onSuccess: (outcome): Done => ({ outcome }), onFailure: (error): Done => ({ error }) })),
        { startImmediately: true },
      )
      const at = () =>
        Effect.gen(function* () {
          // Let what the last move set going run (the forked fibers, a promise's answer) before looking.
          for (let i = 0; i < 5; i++) {
            yield* Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
            yield* Effect.yieldNow
          }
          const exit = fiber.pollUnsafe()
          return exit === undefined ? null : yield* Fiber.join(fiber)
        })
      const trace = yield* script(at)
      return { trace, done: yield* Fiber.join(fiber) }
    }),
  )

describe('the pay step: a decline is told at once', () => {
  it.each(['rejects', 'protocol-error'] as const)('the user declined in the wallet (%s): the failure, with no wait and no bond read', async (outcome) => {
    const s = setup(outcome)
    const { trace } = await run(s, (at) => at())
    expect(trace).toMatchObject({ error: outcome === 'rejects' ? { _tag: 'TransactionNotSent', declined: true } : { _tag: 'WalletProtocolError', code: 300 } })
    expect(s.checking).toBe(0)
    expect(s.reads()).toBe(0)
  })

  it('a wallet that sent the payment: done by the wallet, the word no longer listened for', async () => {
    const s = setup('signs')
    const { trace } = await run(s, (at) => at())
    expect(trace).toEqual({ outcome: { by: 'wallet' } })
    expect(s.checking).toBe(0)
  })
})

describe('the pay step: a wallet that failed otherwise waits for the watcher (ton-connect/sdk#340)', () => {
  it('sent, then an error: "checking", and the bond going active is a success, before the window ends', async () => {
    const s = setup('sends-then-fails')
    const { trace, done } = await run(s, (at) =>
      Effect.gen(function* () {
        const atOnce = { done: yield* at(), checking: s.checking }
        yield* TestClock.adjust('5 seconds')
        s.say('active')
        return { atOnce, after5s: yield* at() }
      }),
    )
    expect(trace).toEqual({ atOnce: { done: null, checking: 1 }, after5s: { outcome: { by: 'chain', word: 'active' } } })
    expect(done).toEqual({ outcome: { by: 'chain', word: 'active' } })
  })

  it("the chain's stream saw the payment (chain:payment seen): a success as well", async () => {
    const s = setup('widget-closed')
    const { done } = await run(s, (at) =>
      Effect.gen(function* () {
        yield* TestClock.adjust('20 seconds')
        s.say('seen')
        return yield* at()
      }),
    )
    expect(done).toEqual({ outcome: { by: 'chain', word: 'seen' } })
  })

  it("no word by the end of the validity window: 'Transaction was not sent', with the wallet's error as its reason, and the bond read once at the end", async () => {
    const s = setup('fails')
    const { trace, done } = await run(s, (at) =>
      Effect.gen(function* () {
        yield* TestClock.adjust('59999 millis')
        const before = { done: yield* at(), reads: s.reads() }
        yield* TestClock.adjust('1 millis')
        return before
      }),
    )
    expect(trace).toEqual({ done: null, reads: 0 })
    expect(done).toMatchObject({ error: { _tag: 'TransactionNotSent', reason: expect.stringContaining('wallet error 0: Unknown error') } })
    expect(userMessage((done as { error: never }).error)).toBe('Transaction was not sent')
    expect(s.reads()).toBe(1)
    expect(s.checking).toBe(1)
  })

  it('the bond the list shows paid at the end of the window (its live event missed): a success, with that bond', async () => {
    const s = setup('fails')
    const { done } = await run(s, () =>
      Effect.gen(function* () {
        s.api.mintList = [{ ...s.mint, status: 'active' }]
        yield* TestClock.adjust('60 seconds')
      }),
    )
    expect(done).toEqual({ outcome: { by: 'chain', word: 'active', mint: { ...s.mint, status: 'active' } } })
  })

  it('the widget\'s own "Transaction was not sent" (not a decline) waits as well', async () => {
    const s = setup('widget-closed')
    const { trace } = await run(s, (at) =>
      Effect.gen(function* () {
        yield* TestClock.adjust('30 seconds')
        const at30 = { done: yield* at(), checking: s.checking }
        yield* TestClock.adjust('30 seconds')
        return at30
      }),
    )
    expect(trace).toEqual({ done: null, checking: 1 })
  })
})

describe('the pay step: a wallet that never answers (ton-connect/sdk#449)', () => {
  it('in view all along: no step outlives the validity window, and it says the payment was not sent', async () => {
    const s = setup('silent')
    const { trace, done } = await run(s, (at) =>
      Effect.gen(function* () {
        yield* TestClock.adjust('59 seconds')
        const at59 = { done: yield* at(), checking: s.checking }
        yield* TestClock.adjust('1 second')
        return at59
      }),
    )
    expect(trace).toEqual({ done: null, checking: 0 })
    expect(done).toMatchObject({ error: { _tag: 'TransactionNotSent', reason: expect.stringContaining('no answer from the wallet') } })
    expect(s.abandoned).toBe(true)
  })

  it('away in the wallet past the window: nothing is decided while away; back in view, the bond is read and the step ends at once', async () => {
    const s = setup('silent')
    const { trace, done } = await run(s, (at) =>
      Effect.gen(function* () {
        s.platform.setVisible(false)
        yield* TestClock.adjust('5 minutes')
        const away = { done: yield* at(), reads: s.reads() }
        s.platform.setVisible(true)
        return { away, back: yield* at() }
      }),
    )
    expect(trace).toMatchObject({ away: { done: null, reads: 0 }, back: { error: { _tag: 'TransactionNotSent' } } })
    expect(done).toMatchObject({ error: { _tag: 'TransactionNotSent' } })
    expect(s.reads()).toBe(1)
  })

  it('back in view with the bond paid (its live event lost while away): a success at once, within the window', async () => {
    const s = setup('silent')
    const { trace } = await run(s, (at) =>
      Effect.gen(function* () {
        s.platform.setVisible(false)
        yield* TestClock.adjust('20 seconds')
        s.api.mintList = [{ ...s.mint, status: 'active' }]
        s.platform.setVisible(true)
        return yield* at()
      }),
    )
    expect(trace).toEqual({ outcome: { by: 'chain', word: 'active', mint: { ...s.mint, status: 'active' } } })
  })

  it('back in view within the window with nothing known: "checking", and the step waits on, to the end of the window', async () => {
    const s = setup('silent')
    const { trace, done } = await run(s, (at) =>
      Effect.gen(function* () {
        s.platform.setVisible(false)
        yield* TestClock.adjust('10 seconds')
        s.platform.setVisible(true)
        const back = { done: yield* at(), checking: s.checking, reads: s.reads() }
        yield* TestClock.adjust('49 seconds')
        const at59 = yield* at()
        yield* TestClock.adjust('1 second')
        return { back, at59 }
      }),
    )
    expect(trace).toEqual({ back: { done: null, checking: 1, reads: 1 }, at59: null })
    expect(done).toMatchObject({ error: { _tag: 'TransactionNotSent' } })
    expect(s.reads()).toBe(2)
  })

  it('a word while the wallet is still silent ends the step: the bond is paid', async () => {
    const s = setup('silent')
    const { trace } = await run(s, (at) =>
      Effect.gen(function* () {
        yield* TestClock.adjust('3 seconds')
        s.say('active')
        return yield* at()
      }),
    )
    expect(trace).toEqual({ outcome: { by: 'chain', word: 'active' } })
  })

  it('a wallet that failed while the app was away: decided only when back in view', async () => {
    const s = setup('fails')
    const { trace } = await run(s, (at) =>
      Effect.gen(function* () {
        s.platform.setVisible(false)
        yield* TestClock.adjust('61 seconds')
        const away = yield* at()
        s.platform.setVisible(true)
        return { away, back: yield* at() }
      }),
    )
    expect(trace).toMatchObject({ away: null, back: { error: { _tag: 'TransactionNotSent' } } })
  })

  it('stops listening to the platform and to the watcher once done', async () => {
    const s = setup('silent')
    await run(s, () => TestClock.adjust('60 seconds'))
    expect(s.visibility).toEqual({ subscribed: 1, unsubscribed: 1 })
    expect(s.listening).toBe(true)
    expect(s.abandoned).toBe(true)
  })
})
