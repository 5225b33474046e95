import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Effect } from 'effect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JsonFileStorage, TonConnectSdkWallet } from '../../adapters/node/ton-connect-sdk-wallet.ts'
import { TON_CONNECT_CONNECTION_KEY } from '../../adapters/ton/ton-connect-wallet.ts'
import { userMessage } from '../../core/index.ts'
import { attachLocalTon, type LocalTon, localTreasuryAddress } from '../../stand-ins/local-ton.ts'
import { type CliStack, type CliUser, freshId, Sink, startCliStack } from './support.ts'

/**
 * `axiom wallet` and a paid `axiom bond` against the local TON stack: the real @tonconnect/sdk in
 * the CLI, the bridge and the dev wallet (auto mode answers after ~300 ms), the sandbox chain and
 * the payment watcher that activates the bond.
 */
let stack: CliStack
let ton: LocalTon
let days: number

beforeAll(async () => {
  stack = await startCliStack({ server: { treasuryAddress: localTreasuryAddress() } })
  ton = await attachLocalTon(stack.server, { port: 0, autoApprove: 'approve', payoutIntervalMs: 0 })
})
afterAll(async () => {
  await ton?.close()
  await stack?.close()
})

/** A logged-in user whose CLI talks to this local TON server. */
const loggedIn = async (): Promise<CliUser> => {
  const user = stack.user()
  user.env.AXIOM_TON = ton.url
  const r = await user.run(['login', '--dev-user', String(freshId()), '--json'])
  expect(r.code, r.stderr).toBe(0)
  days ??= (await user.run(['plans', '--json'])).json()[0].days
  return user
}

const connected = async (): Promise<CliUser> => {
  const user = await loggedIn()
  const c = await user.run(['wallet', 'connect', '--dev-wallet', '--json'])
  expect(c.code, c.stderr).toBe(0)
  return user
}

describe('axiom wallet', () => {
  it('connects the dev wallet, keeps the connection between runs, and disconnects', async () => {
    const user = await loggedIn()
    const none = await user.run(['wallet', 'status', '--json'])
    expect(none.code, none.stderr).toBe(0)
    expect(none.json()).toEqual({ connected: false })

    const c = await user.run(['wallet', 'connect', '--dev-wallet', '--json'])
    expect(c.code, c.stderr).toBe(0)
    const dev = ton.devWallet.key
    expect(c.json()).toMatchObject({ connected: true, address: dev.address, friendly_address: dev.friendly, chain: '-239', wallet: 'axiom-dev-wallet', max_messages: 4 })
    expect(BigInt(c.json().balance_nano)).toBeGreaterThan(0n)
    expect(c.stdout).not.toContain('TON_CONNECT_SDK')
    expect(existsSync(join(user.home, 'tonconnect.json'))).toBe(true)

    // A later run restores the stored connection.
    const s = await user.run(['wallet', 'status', '--json'])
    expect(s.code, s.stderr).toBe(0)
    expect(s.json()).toMatchObject({ connected: true, address: dev.address, friendly_address: dev.friendly })
    expect((await user.run(['wallet', 'status'])).stdout).toMatch(new RegExp(`Address\\s+${dev.friendly}`))
    const again = await user.run(['wallet', 'connect', '--dev-wallet', '--json'])
    expect(again.json()).toMatchObject({ already_connected: true, address: dev.address })

    const d = await user.run(['wallet', 'disconnect', '--json'])
    expect(d.code, d.stderr).toBe(0)
    expect(d.json()).toEqual({ disconnected: true, address: dev.address })
    expect(JSON.parse(readFileSync(join(user.home, 'tonconnect.json'), 'utf8'))).toEqual({})
    expect((await user.run(['wallet', 'status', '--json'])).json()).toEqual({ connected: false })
    const twice = await user.run(['wallet', 'disconnect'])
    expect(twice.code).toBe(1)
    expect(twice.stderr).toContain('Wallet is not connected')
  })

  it('without --dev-wallet prints the link to open; the user opens it, the wallet declines: exit 1', async () => {
    const user = await loggedIn()
    ton.devWallet.auto = 'reject'
    try {
      const stderr = new Sink()
      const running = user.run(['wallet', 'connect'], { stderr })
      await stderr.until((t) => t.includes(`${ton.url}/dev-wallet?`))
      const link = /(http:\/\/\S+\/dev-wallet\?\S+)/.exec(stderr.text)![1]!
      expect(new URL(link).searchParams.get('v')).toBe('2')
      // As if the user pasted the printed link into the dev wallet.
      const opened = await fetch(`${ton.url}/dev-wallet/api/connect`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ link }) })
      expect(opened.status).toBe(200)
      const r = await running
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('Wallet was not connected')
      expect((await user.run(['wallet', 'status', '--json'])).json()).toEqual({ connected: false })
    } finally {
      ton.devWallet.auto = 'approve'
    }
  })

  it('a dev wallet that cannot be reached is a clear error', async () => {
    const user = await loggedIn()
    const r = await user.run(['wallet', 'connect', '--dev-wallet'], { env: { AXIOM_TON: 'http://127.0.0.1:9' } })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/Unknown wallet error: .*(No TON Connect wallet|cannot be reached)/)
  })
})

describe('axiom bond with a connected wallet', () => {
  it('pays with the dev wallet on the local chain and waits until the bond is active', async () => {
    const user = await connected()
    const dev = ton.devWallet.key.address
    const walletBefore = await ton.chain.balance(dev)
    const treasuryBefore = await ton.chain.balance(ton.treasuryAddress)

    const b = await user.run(['bond', '10', '--days', String(days), '--json'])
    expect(b.code, b.stderr).toBe(0)
    const { mint, payment, paid, wallet } = b.json()
    expect(paid).toBe(true)
    expect(mint).toMatchObject({ status: 'active', amount_token: 10, tariff_days: days })
    expect(payment).toMatchObject({ comment: `axiom:mint:${mint.id}` })
    expect(wallet.address).toBe(dev)
    expect(b.stderr).toContain('Transaction is being processed')

    const amount = BigInt(payment.amount_nano)
    expect(await ton.chain.balance(dev)).toBeLessThan(walletBefore - amount)
    expect(await ton.chain.balance(ton.treasuryAddress)).toBeGreaterThan(treasuryBefore)
    const mints = (await user.run(['mints', '--json'])).json()
    expect(mints.find((m: { id: number }) => m.id === mint.id).status).toBe('active')
  })

  it('prints the steps and the active bond as text', async () => {
    const user = await connected()
    const b = await user.run(['bond', '5', '--days', String(days)])
    expect(b.code, b.stderr).toBe(0)
    expect(b.stderr).toMatch(/Bond #\d+ created: 5\.00 AXIOM/)
    expect(b.stderr).toMatch(/Asking UQ\S+ to pay [\d.]+ GRAM to \S+ \(comment axiom:mint:\d+\)/)
    expect(b.stdout).toMatch(/Paid [\d.]+ GRAM from UQ/)
    expect(b.stdout).toMatch(/Bond #\d+ is active: 5\.00 AXIOM/)
  })

  it('a payment the wallet rejects: "Transaction was not sent", exit 1, nothing paid, the pending bond left to expire as in the app', async () => {
    const user = await connected()
    const dev = ton.devWallet.key.address
    const walletBefore = await ton.chain.balance(dev)
    ton.devWallet.auto = 'reject'
    try {
      const b = await user.run(['bond', '10', '--days', String(days), '--json'])
      expect(b.code).not.toBe(0)
      expect(b.code).toBe(1)
      expect(b.stderr).toContain('Transaction was not sent')
      expect(b.stdout).toBe('')
      const text = await user.run(['bond', '10', '--days', String(days)])
      expect(text.code).toBe(1)
      expect(text.stderr).toMatch(/Bond #\d+ was not paid: it stays pending until it expires/)
    } finally {
      ton.devWallet.auto = 'approve'
    }
    expect(await ton.chain.balance(dev)).toBe(walletBefore)
    // The app does not cancel the unpaid bonds either: they stay pending until the backend expires them
    // (a listing shows only the newest pending one: the core's pending rule).
    const mints = (await user.run(['mints', '--json'])).json()
    expect(mints.filter((m: { status: string }) => m.status === 'canceled')).toEqual([])
    expect(mints.filter((m: { status: string; amount_token: number }) => m.status === 'pending' && Number(m.amount_token) === 10)).toHaveLength(1)
  })

  it('--pay without a wallet refuses; without --pay the payment is printed as before', async () => {
    const user = await loggedIn()
    const refused = await user.run(['bond', '10', '--days', String(days), '--pay'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('Wallet was not connected')
    expect(refused.stderr).toContain('axiom wallet connect')
    const printed = await user.run(['bond', '10', '--days', String(days), '--json'])
    expect(printed.code, printed.stderr).toBe(0)
    expect(printed.json()).toMatchObject({ paid: false, mint: { status: 'pending' }, payment: { address: ton.treasuryAddress } })
  })
})

describe('TonConnectSdkWallet', () => {
  const wallet = (home: string) =>
    new TonConnectSdkWallet({
      manifestUrl: 'http://127.0.0.1:9/tonconnect-manifest.json',
      walletsListSource: 'http://127.0.0.1:9/wallets-v2.json',
      storage: new JsonFileStorage(join(home, 'tonconnect.json')),
      openLink: () => undefined,
    })

  it('restores nothing at once, without the network, when no connection (or only an unanswered one) is stored', async () => {
    const home = stack.user().home
    const w = wallet(home)
    expect(await Effect.runPromise(w.restore())).toBeNull()
    const storage = new JsonFileStorage(join(home, 'tonconnect.json'))
    await storage.setItem(TON_CONNECT_CONNECTION_KEY, JSON.stringify({ type: 'http', connectionSource: {}, sessionCrypto: 'x', createdAt: 1 }))
    const started = Date.now()
    expect(await Effect.runPromise(w.restore())).toBeNull()
    expect(Date.now() - started).toBeLessThan(500)
    expect(await storage.getItem(TON_CONNECT_CONNECTION_KEY)).toBeNull()
    expect(w.account()).toBeNull()
    expect(w.maxMessages()).toBe(0)
  })

  it("gives up on a wallet that does not answer past the transaction's validUntil and the grace: 'Transaction sending was aborted'", async () => {
    const user = await connected()
    const w = new TonConnectSdkWallet({
      manifestUrl: `${ton.url}/tonconnect-manifest.json`,
      walletsListSource: `${ton.url}/wallets-v2.json`,
      storage: new JsonFileStorage(join(user.home, 'tonconnect.json')),
      openLink: () => undefined,
      answerGraceMs: 300,
    })
    ton.devWallet.auto = 'off'
    try {
      expect((await Effect.runPromise(w.restore()))?.address).toBe(ton.devWallet.key.address)
      const validUntil = Math.floor(Date.now() / 1000) - 1
      const error = await Effect.runPromise(Effect.flip(w.sendTransaction({ validUntil, messages: [{ address: ton.devWallet.key.address, amount: '1000' }] })))
      expect(error._tag).toBe('TransactionSendingAborted')
      expect(userMessage(error)).toBe('Transaction sending was aborted')
    } finally {
      ton.devWallet.auto = 'approve'
      w.close()
    }
  })

  it('maps failures to core errors: not connected, nothing to disconnect, no such wallet in the list', async () => {
    const w = wallet(stack.user().home)
    const send = await Effect.runPromise(Effect.result(w.sendTransaction({ validUntil: 0, messages: [] })))
    expect(send._tag === 'Failure' && send.failure._tag).toBe('WalletNotConnected')
    const off = await Effect.runPromise(Effect.result(w.disconnect()))
    expect(off._tag === 'Failure' && off.failure._tag).toBe('WalletNotConnectedToDisconnect')
    const c = await Effect.runPromise(Effect.result(w.connect()))
    expect(c._tag === 'Failure' && c.failure).toMatchObject({ _tag: 'WalletProtocolError', code: 0 })
    w.close()
  })
})
