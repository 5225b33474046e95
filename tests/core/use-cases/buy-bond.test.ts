import { Effect, Fiber } from 'effect'
import { TestClock } from 'effect/testing'
import { describe, expect, it } from 'vitest'
import { type TransactionNotSent, userMessage } from '../../../core/index.ts'
import { buyBond } from '../../../core/use-cases/buy-bond.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { FakeChainReader } from '../fakes/fake-chain-reader.ts'
import { FixedClock } from '../fakes/fixed-clock.ts'
import { RecordingNotifier } from '../fakes/recording-notifier.ts'
import { failure, onTestClock, succeed } from '../fakes/run.ts'
import { ACCOUNT, ScriptedWallet } from '../fakes/scripted-wallet.ts'

const TON = 1_000_000_000n

const setup = (pollEveryMs?: number) => {
  const api = new FakeAxiomApi()
  const wallet = new ScriptedWallet()
  const chain = new FakeChainReader()
  chain.setBalance(ACCOUNT.address, 5n * TON)
  const clock = new FixedClock(1_700_000_123_456)
  const notifier = new RecordingNotifier()
  const buy = buyBond({ api, wallet, chain, clock, notifier, ...(pollEveryMs ? { pollEveryMs } : {}) })
  return { api, wallet, chain, clock, notifier, buy }
}

describe('buyBond', () => {
  it('refuses without a connected wallet, and creates no mint', async () => {
    const s = setup(1)
    await succeed(s.wallet.disconnect())

    expect(await failure(s.buy({ amount: 100, days: 30 }))).toMatchObject({ _tag: 'WalletNotConnected' })
    expect(s.api.callsTo('createMint')).toEqual([])
  })

  it('refuses a wallet that cannot send a single message, and creates no mint', async () => {
    const s = setup(1)
    s.wallet.setMaxMessages(0)

    expect(await failure(s.buy({ amount: 100, days: 30 }))).toMatchObject({ _tag: 'WalletUnsupported', maxMessages: 0, needed: 1 })
    expect(s.api.callsTo('createMint')).toEqual([])
  })

  it.each([0, -1, Number.NaN])('refuses an amount of %s before anything is created', async (amount) => {
    const s = setup(1)

    expect(await failure(s.buy({ amount, days: 30 }))).toMatchObject({ _tag: 'InvalidInput' })
    expect(s.api.calls).toEqual([])
    expect(s.wallet.transactions).toEqual([])
  })

  it('asks the wallet to pay the mint, valid for 60 s, with the payment comment', async () => {
    const s = setup(1)
    s.chain.changeAfterReads(1, ACCOUNT.address, 4n * TON)

    const { mint } = await succeed(s.buy({ amount: 100, days: 30, idempotencyKey: 'buy-1' }))

    expect(s.api.callsTo('createMint')).toEqual([
      { method: 'createMint', input: { amount: 100, days: 30 }, options: { idempotencyKey: 'buy-1' } },
    ])
    expect(s.wallet.transactions).toEqual([
      {
        validUntil: 1_700_000_123 + 60,
        messages: [{ address: `0:${'ee'.repeat(32)}`, amount: '1000000000', comment: `axiom:mint:${mint.id}` }],
      },
    ])
    expect(mint.status).toBe('pending')
  })

  it("says 'Transaction is being processed' once the wallet signed", async () => {
    const s = setup(1)
    s.chain.changeAfterReads(1, ACCOUNT.address, 4n * TON)

    await succeed(s.buy({ amount: 100, days: 30 }))

    expect(s.notifier.notices).toEqual([{ tag: 'transactionProcessing' }])
    expect(s.notifier.texts).toEqual(['Transaction is being processed'])
  })

  it("says nothing of processing when the bond's payment landed before the wallet's answer came back", async () => {
    const s = setup(1)
    s.chain.changeAfterReads(1, ACCOUNT.address, 4n * TON)
    const asked: string[] = []

    await succeed(s.buy({ amount: 100, days: 30, isPaid: (mint) => (asked.push(String(mint.id)), true) }))

    expect(asked).toHaveLength(1)
    expect(s.notifier.notices).toEqual([])
  })

  it('polls the balance every second until it changes', async () => {
    const s = setup()
    s.chain.changeAfterReads(4, ACCOUNT.address, 4n * TON)

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(s.buy({ amount: 100, days: 30 }))
        yield* TestClock.adjust('3 seconds')
        const after3s = { done: fiber.pollUnsafe() !== undefined, reads: s.chain.reads }
        yield* TestClock.adjust('1 second')
        return { after3s, purchase: yield* Fiber.join(fiber), reads: s.chain.reads }
      }),
    )

    expect(seen.after3s).toEqual({ done: false, reads: 4 })
    expect(seen.purchase.balanceChanged).toBe(true)
    expect(seen.reads).toBe(5)
  })

  it('reads the balance before asking the wallet: a wallet that approves at once, on a slow chain, still ends the watch at its first change', async () => {
    const s = setup()
    s.chain.readMs = 300
    // The wallet approves at once and the payment lands as it signs.
    s.wallet.onSigned = () => s.chain.setBalance(ACCOUNT.address, 4n * TON)
    const readsWhenAsked: number[] = []
    const signed = s.wallet.onSigned
    s.wallet.onSigned = (tx) => (readsWhenAsked.push(s.chain.reads), signed(tx))

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(s.buy({ amount: 100, days: 30 }))
        yield* TestClock.adjust('1600 millis')
        if (fiber.pollUnsafe() === undefined) return { done: false, balanceChanged: null }
        return { done: true, balanceChanged: (yield* Fiber.join(fiber)).balanceChanged }
      }),
    )

    expect(readsWhenAsked).toEqual([1])
    expect(seen).toEqual({ done: true, balanceChanged: true })
    expect(s.chain.reads).toBe(2)
  })

  it('a chain that does not answer within 2 s does not hold the wallet prompt: the first poll becomes the baseline', async () => {
    const s = setup()
    s.chain.readMs = 10_000
    const askedAt: number[] = []
    const seen = await onTestClock(
      Effect.gen(function* () {
        s.wallet.onSigned = () => askedAt.push(s.chain.reads)
        const fiber = yield* Effect.forkChild(s.buy({ amount: 100, days: 30 }))
        yield* TestClock.adjust('1999 millis')
        const askedBefore2s = askedAt.length
        yield* TestClock.adjust('1 millis')
        return { askedBefore2s, askedAt2s: askedAt.length }
      }),
    )

    expect(seen).toEqual({ askedBefore2s: 0, askedAt2s: 1 })
  })

  it('takes the first successful poll as the baseline when the balance could not be read before signing', async () => {
    const s = setup()
    const chain = new FakeChainReader()
    chain.changeAfterReads(2, ACCOUNT.address, 5n * TON) // unreadable before signing and at the first poll
    chain.changeAfterReads(4, ACCOUNT.address, 4n * TON)
    const buy = buyBond({ api: s.api, wallet: s.wallet, chain, clock: s.clock, notifier: s.notifier })

    const purchase = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(buy({ amount: 100, days: 30 }))
        yield* TestClock.adjust('10 seconds')
        return yield* Fiber.join(fiber)
      }),
    )

    expect(purchase.balanceChanged).toBe(true)
  })

  it('gives up watching after 30 tries, the bond bought all the same', async () => {
    const s = setup()

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(s.buy({ amount: 100, days: 30 }))
        yield* TestClock.adjust('29 seconds')
        const doneAt29s = fiber.pollUnsafe() !== undefined
        yield* TestClock.adjust('1 second')
        return { doneAt29s, purchase: yield* Fiber.join(fiber) }
      }),
    )

    expect(seen.doneAt29s).toBe(false)
    expect(seen.purchase).toMatchObject({ balanceChanged: false, mint: { status: 'pending' } })
    expect(s.chain.reads).toBe(1 + 30)
  })

  it('a wallet rejection fails with TransactionNotSent and says nothing about processing', async () => {
    const s = setup(1)
    s.wallet.signOutcome = 'rejects'

    expect(await failure(s.buy({ amount: 100, days: 30 }))).toMatchObject({ _tag: 'TransactionNotSent' })
    expect(s.notifier.notices).toEqual([])
    expect(s.chain.reads).toBeLessThanOrEqual(1)
  })

  it("a wallet the adapter gave up waiting for: the purchase waits out the transaction's window, then reads 'Transaction was not sent', with nothing said about processing", async () => {
    const s = setup(1)
    s.wallet.signOutcome = 'aborted'

    const seen = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(Effect.result(s.buy({ amount: 100, days: 30 })))
        yield* TestClock.adjust('59 seconds')
        const doneAt59s = fiber.pollUnsafe() !== undefined
        yield* TestClock.adjust('1 second')
        return { doneAt59s, result: yield* Fiber.join(fiber) }
      }),
    )

    expect(seen.doneAt59s).toBe(false)
    const error = seen.result._tag === 'Failure' ? seen.result.failure : null
    expect(error).toMatchObject({ _tag: 'TransactionNotSent', reason: expect.stringContaining('TransactionSendingAborted') })
    expect(userMessage(error as TransactionNotSent)).toBe('Transaction was not sent')
    expect(s.notifier.notices).toEqual([])
  })

  it('a wallet that sent the payment and then reported an error (ton-connect/sdk#340): the bond going active makes the purchase a success, said "checking" meanwhile', async () => {
    const s = setup(1)
    s.wallet.signOutcome = 'sends-then-fails'
    s.wallet.onSigned = () => s.chain.setBalance(ACCOUNT.address, 4n * TON)
    let active = false
    let say = () => {}
    const checking: string[] = []

    const purchase = await succeed(
      s.buy({
        amount: 100,
        days: 30,
        isPaid: () => active,
        onChecking: (mint) => {
          checking.push(String(mint.id))
          // The watcher credits the payment a moment later: its user:mint arrives.
          setTimeout(() => ((active = true), say()), 5)
        },
        heard: () => new Promise((resolve) => (say = () => resolve('active'))),
      }),
    )

    expect(checking).toEqual([String(purchase.mint.id)])
    expect(purchase.balanceChanged).toBe(true)
    // "New Bond created" is the live event's to say; no "being processed" after it.
    expect(s.notifier.notices).toEqual([])
  })

  it("a wallet that failed with the payment seen on the chain's stream: 'Transaction is being processed', as after a wallet's success", async () => {
    const s = setup(1)
    s.wallet.signOutcome = 'fails'
    s.chain.changeAfterReads(1, ACCOUNT.address, 4n * TON)

    await succeed(s.buy({ amount: 100, days: 30, heard: () => Promise.resolve('seen' as const) }))

    expect(s.notifier.texts).toEqual(['Transaction is being processed'])
  })

  it('a user who declined in the wallet is told at once: no wait, no check of the bond', async () => {
    const s = setup(1)
    s.wallet.signOutcome = 'rejects'
    const checking: unknown[] = []

    expect(await failure(s.buy({ amount: 100, days: 30, onChecking: (m) => checking.push(m) }))).toMatchObject({ _tag: 'TransactionNotSent', declined: true })
    expect(checking).toEqual([])
    expect(s.api.callsTo('mints')).toEqual([])
  })

  it('a wallet protocol error is passed on as such', async () => {
    const s = setup(1)
    s.wallet.signOutcome = 'protocol-error'

    expect(await failure(s.buy({ amount: 100, days: 30 }))).toMatchObject({ _tag: 'WalletProtocolError', code: 300 })
    expect(s.notifier.notices).toEqual([])
  })
})
