// @vitest-environment happy-dom
import { Address, Cell } from '@ton/core'
import * as sdk from '@tonconnect/ui'
import { BadRequestError, UnknownAppError, UserRejectsError, WalletNotSupportFeatureError } from '@tonconnect/ui'
import type { ConnectedWallet, TonConnectUI } from '@tonconnect/ui'
import { Effect, Fiber } from 'effect'
import { TestClock } from 'effect/testing'
import { describe, expect, it } from 'vitest'
import { commentPayload, friendlyAddress } from '../../adapters/ton/ton-comment-payload.ts'
import {
  pinnedTonConnectUi,
  type StoredConnection,
  storedConnectionIn,
  TON_MAINNET,
  TonConnectWallet,
  tonConnectUiOptions,
  walletErrorFrom,
  connectErrorFrom,
} from '../../adapters/ton/ton-connect-wallet.ts'
import { userMessage } from '../../core/index.ts'
import { restoreWallet } from '../../core/use-cases/restore-wallet.ts'
import { FixedClock } from '../core/fakes/fixed-clock.ts'
import * as tonPayloads from '../../adapters/ton/ton-comment-payload.ts'

const RAW = `0:${'5a'.repeat(32)}`
/** A page that never stalls: restoring's 12 s are the test clock's. */
const clock = new FixedClock()

describe('TON payloads and addresses', () => {
  it('encodes a text comment the way wallets read it (op 0 + text)', () => {
    const cell = Cell.fromBase64(commentPayload('axiom:mint:42')).beginParse()
    expect(cell.loadUint(32)).toBe(0)
    expect(cell.loadStringTail()).toBe('axiom:mint:42')
  })

  it('shows a wallet address in its non-bounceable friendly form, test-flagged on testnet', () => {
    const main = friendlyAddress(RAW, '-239')
    const test = friendlyAddress(RAW, '-3')
    expect(main.startsWith('UQ')).toBe(true)
    expect(test.startsWith('0Q')).toBe(true)
    expect(Address.parse(main).toRawString()).toBe(RAW)
    expect(Address.parseFriendly(main).isBounceable).toBe(false)
    expect(Address.parseFriendly(test).isTestOnly).toBe(true)
  })
})

describe('wallet errors (spec §8)', () => {
  it('maps the SDK errors to the core errors and the user messages', () => {
    expect(userMessage(walletErrorFrom(new UserRejectsError(), sdk))).toBe('Transaction was not sent')
    // The user's refusal is marked a decline; the widget's own 'Transaction was not sent' is not (the payment may be on the chain).
    expect(walletErrorFrom(new UserRejectsError(), sdk)).toMatchObject({ _tag: 'TransactionNotSent', declined: true })
    const widgetClosed = walletErrorFrom(new sdk.TonConnectUIError('Transaction was not sent'), sdk)
    expect(widgetClosed._tag).toBe('TransactionNotSent')
    expect('declined' in widgetClosed && widgetClosed.declined).toBeFalsy()
    expect(walletErrorFrom(new BadRequestError(), sdk)).toMatchObject({ _tag: 'WalletProtocolError', code: 1 })
    expect(walletErrorFrom(new Error('[TON_CONNECT_SDK_ERROR] Manifest not found'), sdk)).toMatchObject({ code: 2 })
    expect(walletErrorFrom(new Error('Passed manifest content error'), sdk)).toMatchObject({ code: 3 })
    expect(walletErrorFrom(new UnknownAppError(), sdk)).toMatchObject({ code: 100 })
    expect(walletErrorFrom(new WalletNotSupportFeatureError('unsupported', { cause: { requiredFeature: { featureName: 'SendTransaction' } } }), sdk)).toMatchObject({ code: 400 })
    expect(walletErrorFrom(new Error('boom'), sdk)).toMatchObject({ code: 0 })
    expect(userMessage(walletErrorFrom(new sdk.TonConnectError('Transaction sending was aborted'), sdk))).toBe('Transaction sending was aborted')
  })

  it('a connect: the wallet’s refusal is a decline, and every other failure keeps its protocol code', () => {
    expect(connectErrorFrom(new UserRejectsError(), sdk)).toMatchObject({ _tag: 'WalletConnectionDeclined' })
    expect(connectErrorFrom(new BadRequestError(), sdk)).toMatchObject({ _tag: 'WalletProtocolError', code: 1 })
    expect(connectErrorFrom(new Error('[TON_CONNECT_SDK_ERROR] Manifest not found'), sdk)).toMatchObject({ code: 2 })
    expect(connectErrorFrom(new UnknownAppError(), sdk)).toMatchObject({ code: 100 })
    expect(connectErrorFrom(new WalletNotSupportFeatureError('unsupported', { cause: { requiredFeature: { featureName: 'SignData' } } }), sdk)).toMatchObject({ code: 400 })
    expect(connectErrorFrom(new sdk.TonConnectUIError('Wallets list is loading'), sdk)).toMatchObject({ _tag: 'WalletProtocolError', code: 0 })
    expect(connectErrorFrom(new Error('boom'), sdk)).toMatchObject({ code: 0 })
  })
})

const STATE_INIT = 'te6cckEBAQEAAgAAAEysuc0='

/** A stand-in for the widget: the wallet app's answers are scripted. */
const fakeWidget = (script: {
  approve: boolean
  rejectTx?: boolean
  maxMessages?: number
  proof?: 'signs' | 'error'
  /** The widget's own restore, started when it is created: resolves with whether it restored. Default: nothing stored. */
  connectionRestored?: Promise<boolean>
  /** The wallet never answers a transaction, or the bridge never takes a disconnect. */
  hangs?: 'sendTransaction' | 'disconnect'
}) => {
  const statusListeners = new Set<(w: ConnectedWallet | null) => void>()
  const modalListeners = new Set<(s: { status: string; closeReason?: string }) => void>()
  let wallet: ConnectedWallet | null = null
  const sent: unknown[] = []
  let disconnects = 0
  let pauses = 0
  let unpauses = 0
  /** Every setConnectRequestParameters call, in order. */
  const requestParameters: unknown[] = []
  let params: { state: string; value?: { tonProof?: string } } | null | undefined = null
  const connectedWallet = () => {
    const tonProof = params?.state === 'ready' ? params.value?.tonProof : undefined
    return {
      account: { address: RAW, chain: '-239', publicKey: 'ab'.repeat(32), walletStateInit: STATE_INIT },
      device: { features: ['SendTransaction', { name: 'SendTransaction', maxMessages: script.maxMessages ?? 4 }] },
      ...(tonProof && script.proof === 'signs'
        ? {
            connectItems: {
              tonProof: {
                name: 'ton_proof',
                proof: { timestamp: 1780000000, domain: { lengthBytes: 14, value: 'localhost:5173' }, payload: tonProof, signature: 'c2ln' },
              },
            },
          }
        : tonProof && script.proof === 'error'
          ? { connectItems: { tonProof: { name: 'ton_proof', error: { code: 400, message: 'not supported' } } } }
          : {}),
    } as unknown as ConnectedWallet
  }
  const ui = {
    setConnectRequestParameters(p: typeof params) {
      requestParameters.push(p)
      params = p
    },
    get connected() {
      return wallet !== null
    },
    get wallet() {
      return wallet
    },
    connectionRestored: script.connectionRestored ?? Promise.resolve(false),
    onStatusChange(cb: (w: ConnectedWallet | null) => void) {
      statusListeners.add(cb)
      return () => statusListeners.delete(cb)
    },
    onModalStateChange(cb: (s: { status: string; closeReason?: string }) => void) {
      modalListeners.add(cb)
      return () => modalListeners.delete(cb)
    },
    async openModal() {
      setTimeout(() => {
        if (script.approve) {
          wallet = connectedWallet()
          for (const l of [...statusListeners]) l(wallet)
        } else for (const l of [...modalListeners]) l({ status: 'closed', closeReason: 'action-cancelled' })
      }, 0)
    },
    connector: {
      pauseConnection: () => void pauses++,
      unPauseConnection: async () => void unpauses++,
    },
    async sendTransaction(tx: unknown) {
      if (script.hangs === 'sendTransaction') return new Promise(() => {})
      if (script.rejectTx) throw new UserRejectsError()
      sent.push(tx)
      return { boc: 'te6cc' }
    },
    async disconnect() {
      disconnects++
      wallet = null
      for (const l of [...statusListeners]) l(null)
      if (script.hangs === 'disconnect') await new Promise(() => {})
    },
  }
  return {
    ui: ui as unknown as TonConnectUI,
    sent,
    requestParameters,
    /** The stored connection comes back (the widget's restore, however late): the status changes to it. */
    restores() {
      wallet = connectedWallet()
      for (const l of [...statusListeners]) l(wallet)
    },
    get disconnects() {
      return disconnects
    },
    /** Bridge connections closed without a disconnect (the connection stays stored). */
    get pauses() {
      return pauses
    },
    get unpauses() {
      return unpauses
    },
  }
}

const deferred = <A>() => {
  let resolve!: (a: A) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<A>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const walletOver = (widget: ReturnType<typeof fakeWidget>) =>
  new TonConnectWallet({ create: async () => widget.ui, tonCore: () => import('../../adapters/ton/ton-comment-payload.ts') })

describe('the wallet widget settings', () => {
  const base = { manifestUrl: 'https://axiom.example/tonconnect-manifest.json', language: 'ru' as const }

  it('returns users from a wallet mini app to the mini app’s t.me direct link, and leaves out the deprecated skipRedirectToWallet', () => {
    const options = tonConnectUiOptions({ ...base, twaReturnUrl: 'https://t.me/axiom_bot/axiom' })
    expect(options.actionsConfiguration).toEqual({
      returnStrategy: 'back',
      twaReturnUrl: 'https://t.me/axiom_bot/axiom',
      modals: ['before'],
      notifications: ['before', 'success', 'error'],
    })
    expect(options).toMatchObject({ manifestUrl: base.manifestUrl, language: 'ru', analytics: { mode: 'off' } })
    expect(JSON.stringify(options)).not.toContain('skipRedirectToWallet')
  })

  it('pins the network right after building the widget: mainnet unless configured', () => {
    const steps: string[] = []
    const build = (o: unknown) => {
      steps.push(`build ${JSON.stringify((o as { language: string }).language)}`)
      return { setConnectionNetwork: (n?: string) => void steps.push(`network ${n}`) }
    }
    pinnedTonConnectUi(build, tonConnectUiOptions(base))
    pinnedTonConnectUi(build, tonConnectUiOptions(base), '-3')
    expect(steps).toEqual(['build "ru"', 'network -239', 'build "ru"', 'network -3'])
    expect(TON_MAINNET).toBe('-239')
  })
})

describe('TonConnectWallet', () => {
  it('connects, reports the account with its friendly form and the device message limit', async () => {
    const wallet = walletOver(fakeWidget({ approve: true, maxMessages: 4 }))
    const seen: unknown[] = []
    wallet.onAccountChange((a) => seen.push(a?.address ?? null))
    const account = await Effect.runPromise(wallet.connect())
    expect(account.address).toBe(RAW)
    expect(account.friendlyAddress?.startsWith('UQ')).toBe(true)
    expect(wallet.maxMessages()).toBe(4)
    expect(seen).toContain(RAW)
  })

  it('asks for a tonProof of the payload before opening the modal, and reports the proof with the StateInit', async () => {
    const widget = fakeWidget({ approve: true, proof: 'signs' })
    const wallet = walletOver(widget)
    const account = await Effect.runPromise(wallet.connect({ tonProofPayload: 'payload-1' }))
    expect(widget.requestParameters).toEqual([{ state: 'ready', value: { tonProof: 'payload-1' } }])
    expect(account.walletStateInit).toBe(STATE_INIT)
    expect(account.publicKey).toBe('ab'.repeat(32))
    expect(account.chain).toBe('-239')
    expect(account.proof).toEqual({
      timestamp: 1780000000,
      domain: { lengthBytes: 14, value: 'localhost:5173' },
      payload: 'payload-1',
      signature: 'c2ln',
      state_init: STATE_INIT,
    })
  })

  it('asks for no proof without a payload, and reports none when the wallet answers a ton_proof error', async () => {
    const plain = fakeWidget({ approve: true, proof: 'signs' })
    const account = await Effect.runPromise(walletOver(plain).connect())
    expect(plain.requestParameters).toEqual([null])
    expect(account.proof).toBeUndefined()

    const refusing = fakeWidget({ approve: true, proof: 'error' })
    const refused = await Effect.runPromise(walletOver(refusing).connect({ tonProofPayload: 'payload-2' }))
    expect(refusing.requestParameters).toEqual([{ state: 'ready', value: { tonProof: 'payload-2' } }])
    expect(refused.address).toBe(RAW)
    expect(refused.proof).toBeUndefined()
  })

  it('declines when the user closes the modal without a wallet', async () => {
    const wallet = walletOver(fakeWidget({ approve: false }))
    const r = await Effect.runPromise(Effect.result(wallet.connect()))
    expect(r._tag === 'Failure' && userMessage(r.failure)).toBe('Wallet was not connected')
  })

  it('sends the transaction with the comment as a payload, and maps a rejection', async () => {
    const widget = fakeWidget({ approve: true })
    const wallet = walletOver(widget)
    await Effect.runPromise(wallet.connect())
    await Effect.runPromise(
      wallet.sendTransaction({ validUntil: 100, messages: [{ address: RAW, amount: '1000', comment: 'axiom:mint:7' }] }),
    )
    const tx = widget.sent[0] as { validUntil: number; messages: { amount: string; payload: string }[] }
    expect(tx.validUntil).toBe(100)
    expect(tx.messages[0]?.amount).toBe('1000')
    expect(Cell.fromBase64(tx.messages[0]!.payload).beginParse().skip(32).loadStringTail()).toBe('axiom:mint:7')

    const rejecting = walletOver(fakeWidget({ approve: true, rejectTx: true }))
    await Effect.runPromise(rejecting.connect())
    const r = await Effect.runPromise(Effect.result(rejecting.sendTransaction({ validUntil: 1, messages: [] })))
    expect(r._tag === 'Failure' && r.failure._tag).toBe('TransactionNotSent')
  })

  it("gives up on a wallet that does not answer past the transaction's validUntil and the grace: 'Transaction sending was aborted'", async () => {
    const wallet = new TonConnectWallet({
      create: async () => fakeWidget({ approve: true, hangs: 'sendTransaction' }).ui,
      tonCore: async () => tonPayloads,
      answerGraceMs: 30,
    })
    await Effect.runPromise(wallet.connect())
    const validUntil = Math.floor(Date.now() / 1000) - 1
    const error = await Effect.runPromise(Effect.flip(wallet.sendTransaction({ validUntil, messages: [{ address: RAW, amount: '1' }] })))
    expect(error._tag).toBe('TransactionSendingAborted')
    expect(userMessage(error)).toBe('Transaction sending was aborted')
  })

  it("a disconnect the bridge does not take in time: 'Disconnect was aborted'; while not connected: 'Wallet is not connected'", async () => {
    const wallet = new TonConnectWallet({
      create: async () => fakeWidget({ approve: true, hangs: 'disconnect' }).ui,
      tonCore: async () => tonPayloads,
      disconnectTimeoutMs: 30,
    })
    expect(userMessage(await Effect.runPromise(Effect.flip(wallet.disconnect())))).toBe('Wallet is not connected')
    await Effect.runPromise(wallet.connect())
    const error = await Effect.runPromise(Effect.flip(wallet.disconnect()))
    expect(error._tag).toBe('DisconnectAborted')
    expect(userMessage(error)).toBe('Disconnect was aborted')
  })

  it('refuses to disconnect while not connected, and disconnects when connected', async () => {
    const wallet = walletOver(fakeWidget({ approve: true }))
    const before = await Effect.runPromise(Effect.result(wallet.disconnect()))
    expect(before._tag === 'Failure' && before.failure._tag).toBe('WalletNotConnectedToDisconnect')
    await Effect.runPromise(wallet.connect())
    await Effect.runPromise(wallet.disconnect())
    expect(wallet.account()).toBeNull()
  })

  it('restores nothing when no connection was stored', async () => {
    const wallet = walletOver(fakeWidget({ approve: true }))
    expect(await Effect.runPromise(wallet.restore())).toBeNull()
  })

  it('with nothing stored, restoring answers null without loading the widget, and the first connect loads it', async () => {
    let loads = 0
    const widget = fakeWidget({ approve: true })
    const wallet = new TonConnectWallet({
      create: async () => {
        loads++
        return widget.ui
      },
      tonCore: () => import('../../adapters/ton/ton-comment-payload.ts'),
      storedConnection: () => 'none',
    })
    expect(await Effect.runPromise(restoreWallet({ wallet, clock }))).toBeNull()
    expect(loads).toBe(0)

    const account = await Effect.runPromise(wallet.connect())
    expect(account.address).toBe(RAW)
    expect(loads).toBe(1)
  })
})

/** Lets promise callbacks and the fibers they wake run (the widget is promise-based). */
const settle = Effect.promise(() => new Promise<void>((r) => setTimeout(r, 5)))

describe('TonConnectWallet restoring (spec §4)', () => {
  /** A wallet whose widget loads when the test says, and restores when the test says. */
  const slowWidget = () => {
    const load = deferred<TonConnectUI>()
    const restored = deferred<boolean>()
    const widget = fakeWidget({ approve: true, connectionRestored: restored.promise })
    const wallet = new TonConnectWallet({ create: () => load.promise, tonCore: async () => tonPayloads })
    const seen: Array<string | null> = []
    wallet.onAccountChange((a) => seen.push(a?.address ?? null))
    return { load, restored, widget, wallet, seen }
  }

  it('is ready once the widget has loaded; a widget that fails to load is an unanswered WalletRestoreFailed, and the next try loads it again', async () => {
    let loads = 0
    const widget = fakeWidget({ approve: true })
    const wallet = new TonConnectWallet({
      create: async () => {
        if (++loads === 1) throw new TypeError('Failed to fetch dynamically imported module')
        return widget.ui
      },
      tonCore: async () => tonPayloads,
    })

    const first = await Effect.runPromise(Effect.result(wallet.ready()))
    expect(first._tag === 'Failure' && first.failure._tag).toBe('WalletRestoreFailed')
    expect(first._tag === 'Failure' && first.failure.definite).toBeFalsy()
    await Effect.runPromise(wallet.ready())
    expect(loads).toBe(2)
  })

  it("gives up a widget download that stalls, tried every 2 s: 'Connection restoring was aborted', and connects once it arrives", async () => {
    const load = deferred<TonConnectUI>()
    const widget = fakeWidget({ approve: true })
    const wallet = new TonConnectWallet({ create: () => load.promise, tonCore: async () => tonPayloads, loadTimeoutMs: 50 })

    const restored = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(Effect.result(restoreWallet({ wallet, clock })))
        for (let i = 0; i < 6; i++) {
          yield* TestClock.adjust('2050 millis')
          yield* settle
        }
        return yield* Fiber.join(fiber)
      }).pipe(Effect.provide(TestClock.layer())),
    )
    expect(restored._tag === 'Failure' && restored.failure.reason).toBe('The wallet widget did not load within 0.05 s')
    expect(restored._tag === 'Failure' && userMessage(restored.failure)).toBe('Connection restoring was aborted')

    load.resolve(widget.ui)
    expect((await Effect.runPromise(wallet.connect())).address).toBe(RAW)
  })

  it('with restoreWallet: a widget that takes 20 s to load and then restores within 1 s keeps the connection', async () => {
    const { load, restored, widget, wallet, seen } = slowWidget()

    const account = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet, clock }))
        yield* TestClock.adjust('20 seconds')
        load.resolve(widget.ui)
        yield* settle
        yield* TestClock.adjust('1 second')
        widget.restores()
        restored.resolve(true)
        yield* settle
        return yield* Fiber.join(fiber)
      }).pipe(Effect.provide(TestClock.layer())),
    )

    expect(account?.address).toBe(RAW)
    expect(wallet.account()?.address).toBe(RAW)
    expect(widget.disconnects).toBe(0)
    expect(seen).toContain(RAW)
  })

  it('with restoreWallet: a restore unanswered 12 s after the widget is ready is abandoned; what restores late is paused, kept stored, never shown, and Connect adopts it', async () => {
    const { load, restored, widget, wallet, seen } = slowWidget()

    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(restoreWallet({ wallet, clock }))
        yield* TestClock.adjust('20 seconds')
        load.resolve(widget.ui)
        yield* settle
        yield* TestClock.adjust('11999 millis')
        const doneBefore12s = fiber.pollUnsafe() !== undefined
        yield* TestClock.adjust('1 millis')
        const given = yield* Effect.flip(Fiber.join(fiber))
        // The widget goes on restoring in the background, and gets there late.
        widget.restores()
        restored.resolve(true)
        yield* settle
        return { doneBefore12s, given: userMessage(given) }
      }).pipe(Effect.provide(TestClock.layer())),
    )

    expect(outcome).toEqual({ doneBefore12s: false, given: 'Connection restoring was aborted' })
    expect(widget.disconnects).toBe(0)
    expect(widget.pauses).toBe(1)
    expect(wallet.account()).toBeNull()
    expect(seen).not.toContain(RAW)

    // The user taps Connect: the connection that came back late is theirs, without the modal.
    expect((await Effect.runPromise(wallet.connect())).address).toBe(RAW)
    expect(widget.unpauses).toBe(1)
    expect(wallet.account()?.address).toBe(RAW)
  })

  /** A widget whose restore ended without a connection, over a store the test sets. */
  const endedWidget = (stored: { now: StoredConnection }) => {
    const widget = fakeWidget({ approve: true, connectionRestored: Promise.resolve(false) })
    const wallet = new TonConnectWallet({ create: async () => widget.ui, tonCore: async () => tonPayloads, storedConnection: () => stored.now })
    return { widget, wallet }
  }

  it('a restore the SDK ended and the stored connection still there is unanswered (tried again); one the SDK removed is a definite failure', async () => {
    const stored = { now: 'established' as StoredConnection }
    const { wallet } = endedWidget(stored)
    const unanswered = await Effect.runPromise(Effect.flip(wallet.restore()))
    expect(unanswered).toMatchObject({ _tag: 'WalletRestoreFailed', reason: 'The wallet did not answer' })
    expect(unanswered.definite).toBeFalsy()

    stored.now = 'none'
    const refused = await Effect.runPromise(Effect.flip(wallet.restore()))
    expect(refused).toMatchObject({ _tag: 'WalletRestoreFailed', definite: true })
    expect(userMessage(refused)).toBe('Provider is not restored')
  })

  it('an unfinished connect stored at start restores as nothing, and may still complete later', async () => {
    const stored = { now: 'pending' as StoredConnection }
    const { wallet } = endedWidget(stored)
    expect(await Effect.runPromise(wallet.restore())).toBeNull()
  })

  it('reads what the SDK stored: an answered connect, an unfinished one, or none', () => {
    expect(storedConnectionIn(null)).toBe('none')
    expect(storedConnectionIn(JSON.stringify({ type: 'http', connectEvent: { event: 'connect' } }))).toBe('established')
    expect(storedConnectionIn(JSON.stringify({ type: 'http', connectionSource: {} }))).toBe('pending')
    expect(storedConnectionIn('{not json')).toBe('pending')
  })

  it('disconnects a connection the widget restored already when restoring is given up', async () => {
    const widget = fakeWidget({ approve: true, connectionRestored: new Promise<boolean>(() => {}) })
    const wallet = walletOver(widget)
    await Effect.runPromise(wallet.ready())
    widget.restores()
    await new Promise((r) => setTimeout(r, 5))

    wallet.forgetStoredConnection()
    await new Promise((r) => setTimeout(r, 5))

    expect(widget.disconnects).toBe(1)
    expect(widget.ui.connected).toBe(false)
    expect(wallet.account()).toBeNull()
  })

  it('shows a connection that completes after the widget restored none: a connect approved in the wallet while the app reloaded', async () => {
    const widget = fakeWidget({ approve: true })
    const wallet = walletOver(widget)
    await Effect.runPromise(wallet.ready())
    expect(await Effect.runPromise(restoreWallet({ wallet, clock }))).toBeNull()

    widget.restores()
    await new Promise((r) => setTimeout(r, 5))

    expect(widget.disconnects).toBe(0)
    expect(wallet.account()?.address).toBe(RAW)
  })

  it("keeps the user's own connection after restoring was given up, and giving up later does not drop it", async () => {
    const widget = fakeWidget({ approve: true })
    const wallet = walletOver(widget)
    await Effect.runPromise(wallet.ready())
    wallet.forgetStoredConnection()

    const account = await Effect.runPromise(wallet.connect())
    wallet.forgetStoredConnection()
    await new Promise((r) => setTimeout(r, 5))

    expect(account.address).toBe(RAW)
    expect(widget.disconnects).toBe(0)
    expect(wallet.account()?.address).toBe(RAW)
  })
})
