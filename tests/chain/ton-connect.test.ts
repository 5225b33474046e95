import { Address, beginCell, toNano } from '@ton/core'
import { TonConnect, UserRejectsError, type Wallet } from '@tonconnect/sdk'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PendingRequest } from '../../stand-ins/ton-connect/dev-wallet.ts'
import type { Session } from '../server/support.ts'
import { eventually, memoryStorage, startStack, type Stack } from './support.ts'

let s: Stack
let user: Session

beforeAll(async () => {
  // The SDK logs every bridge message with console.debug.
  vi.spyOn(console, 'debug').mockImplementation(() => undefined)
  s = await startStack()
  user = await s.ts.login(6001)
})
afterAll(async () => s?.close())

/** Fully offline: the wallets list comes from the local server (the SDK looks the wallet up there after connect). */
const newConnector = () =>
  new TonConnect({ manifestUrl: s.ton.manifestUrl, storage: memoryStorage(), walletsListSource: s.ton.walletsListUrl, analytics: { mode: 'off' } })

/** Connects a real SDK connector: the SDK builds the universal link, "the browser" opens it. */
const connect = async (connector: TonConnect, opts: { auto?: 'approve' | 'reject'; tonProof?: string } = {}) => {
  const statuses: Array<Wallet | null> = []
  const errors: unknown[] = []
  connector.onStatusChange(
    (w) => statuses.push(w),
    (e) => errors.push(e),
  )
  const universalLink = s.ton.devWallet.universalLink + (opts.auto ? `?auto=${opts.auto}` : '')
  const link = connector.connect(
    { universalLink, bridgeUrl: s.ton.bridgeUrl },
    opts.tonProof ? { request: { tonProof: opts.tonProof } } : undefined,
  ) as string
  expect(link.startsWith(s.ton.devWallet.universalLink)).toBe(true)
  const url = new URL(link)
  expect(url.searchParams.get('v')).toBe('2')
  // The SDK must be listening on the bridge before the wallet answers (it opens its SSE first).
  await eventually(() => s.ton.bridge.listenerCount(url.searchParams.get('id')!) > 0)
  const page = await fetch(link)
  expect(page.status).toBe(200)
  return { statuses, errors, link }
}

const commentPayload = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell().toBoc().toString('base64')
const friendly = (raw: string) => Address.parse(raw).toString({ bounceable: true, urlSafe: true })

describe('the TON Connect bridge', () => {
  it('replays stored messages after last_event_id, fans out live ones, and sends heartbeats', async () => {
    const a = 'a'.repeat(64)
    const b = 'b'.repeat(64)
    const post = (body: string, ttl = 60) =>
      fetch(`${s.ton.bridgeUrl}/message?client_id=${a}&to=${b}&ttl=${ttl}&topic=sendTransaction`, { method: 'POST', body })
    expect((await post('bWVzc2FnZTE=')).status).toBe(200)
    expect((await post('bWVzc2FnZTI=')).status).toBe(200)
    expect((await post('!!not base64!!')).status).toBe(400)
    expect((await post('bWVzc2FnZTM=', 3600)).status).toBe(400)
    const firstId = s.ton.bridge.stored(b)[0]!.id

    const ctrl = new AbortController()
    const res = await fetch(`${s.ton.bridgeUrl}/events?client_id=${b}&last_event_id=${firstId}`, { signal: ctrl.signal })
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const reader = res.body!.getReader()
    let text = ''
    const readUntil = async (pred: (t: string) => boolean) => {
      while (!pred(text)) text += new TextDecoder().decode((await reader.read()).value)
    }
    await readUntil((t) => t.includes('bWVzc2FnZTI='))
    expect(text).not.toContain('bWVzc2FnZTE=')
    expect(text).toContain(`"from":"${a}"`)
    await post('bGl2ZQ==')
    await readUntil((t) => t.includes('bGl2ZQ=='))
    await readUntil((t) => t.includes('data: heartbeat'))
    ctrl.abort()
  })

  it('rejects a bad client_id', async () => {
    expect((await fetch(`${s.ton.bridgeUrl}/events?client_id=xyz`)).status).toBe(400)
  })
})

describe('the real @tonconnect/sdk with the dev wallet', () => {
  it('lists the dev wallet from the local wallets list', async () => {
    const connector = newConnector()
    const wallets = await connector.getWallets()
    expect(wallets).toContainEqual(
      expect.objectContaining({ appName: 'axiom-dev-wallet', name: 'AXIOM Dev Wallet', universalLink: s.ton.devWallet.universalLink, bridgeUrl: s.ton.bridgeUrl }),
    )
  })

  it('connects with ton_addr and ton_proof, then a sendTransaction lands on the chain and activates the bond', async () => {
    const connector = newConnector()
    const payloadRes = await fetch(`${s.ton.url}/ton-proof/payload`, { method: 'POST' })
    const { payload } = (await payloadRes.json()) as { payload: string }
    const { statuses } = await connect(connector, { auto: 'approve', tonProof: payload })
    const wallet = await eventually(() => statuses.find((w) => w))
    const dev = s.ton.devWallet.key
    expect(wallet.account.address).toBe(dev.address)
    expect(wallet.account.chain).toBe('-239')
    expect(wallet.account.publicKey).toBe(dev.keyPair.publicKey.toString('hex'))

    // The proof the wallet gave verifies on the backend.
    const tp = wallet.connectItems?.tonProof
    expect(tp && 'proof' in tp).toBe(true)
    const proof = (tp as { proof: any }).proof
    const check = await fetch(`${s.ton.url}/ton-proof/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: wallet.account.address, network: wallet.account.chain, public_key: wallet.account.publicKey, proof: { ...proof, state_init: wallet.account.walletStateInit } }),
    })
    expect(check.status).toBe(200)
    expect(await check.json()).toMatchObject({ valid: true, address: dev.address })
    const again = await fetch(`${s.ton.url}/ton-proof/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: wallet.account.address, proof: { ...proof, state_init: wallet.account.walletStateInit } }),
    })
    expect(again.status).toBe(401)
    expect(await again.json()).toEqual({ msg: 'Payload already used' })

    // Buy a bond: the payment goes through the SDK, the bridge and the wallet into the chain.
    const created = await user.call('POST', '/mint/create', { body: { amount: 20, days: 30 } })
    const { mint, payment } = created.body
    const treasuryBefore = await s.ton.chain.balance(s.ton.treasuryAddress)
    const walletBefore = await s.ton.chain.balance(dev.address)
    const result = await connector.sendTransaction({
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ address: friendly(payment.address), amount: payment.amount_nano, payload: commentPayload(payment.comment) }],
    })
    expect(result.boc).toMatch(/^te6/)
    // The wallet answers once the chain accepts the message, as a wallet does once it has broadcast
    // it: the payment is in the next block, and the bond is active once the watcher reads it.
    const statusOf = async () => (await user.call('GET', '/mint/')).body.items.find((m: any) => m.id === mint.id).status
    await eventually(async () => (await statusOf()) === 'active')
    const treasuryAfter = await s.ton.chain.balance(s.ton.treasuryAddress)
    expect(treasuryAfter).toBeGreaterThan(treasuryBefore + BigInt(payment.amount_nano) - toNano('0.002'))
    expect(await s.ton.chain.balance(dev.address)).toBeLessThan(walletBefore - BigInt(payment.amount_nano))

    await connector.disconnect()
    expect(connector.connected).toBe(false)
  })

  it("binds the dev wallet to the user end to end: the backend's payload, the wallet's proof for the manifest's host, the backend's check", async () => {
    const connector = newConnector()
    const { payload } = (await user.call('POST', '/wallet/ton-proof/payload')).body as { payload: string }
    const { statuses } = await connect(connector, { auto: 'approve', tonProof: payload })
    const wallet = await eventually(() => statuses.find((w) => w))
    const tp = wallet.connectItems?.tonProof
    expect(tp && 'proof' in tp).toBe(true)
    const proof = (tp as { proof: { domain: { value: string } } }).proof
    // Like real wallets, the domain is the host (with its port) of the app URL the manifest names.
    expect(proof.domain.value).toBe(new URL(s.ton.manifestUrl).host)

    const body = { address: wallet.account.address, network: wallet.account.chain, public_key: wallet.account.publicKey, proof: { ...proof, state_init: wallet.account.walletStateInit } }
    const bound = await user.call('POST', '/wallet/ton-proof/check', { body })
    expect(bound.status, JSON.stringify(bound.body)).toBe(200)
    // The backend's payload tells the wallet whose connection it is: the user's own wallet answers.
    const own = s.ton.devWallet.keyForUser(6001)
    expect(wallet.account.address).toBe(own.address)
    expect(bound.body).toEqual({ wallet_address: own.friendly })
    expect((await user.call('GET', '/user/me')).body.wallet_address).toBe(own.friendly)
    // The local TON server's own (unauthenticated) payloads are not the backend's.
    const foreign = (await (await fetch(`${s.ton.url}/ton-proof/payload`, { method: 'POST' })).json()) as { payload: string }
    const refused = await user.call('POST', '/wallet/ton-proof/check', { body: { ...body, proof: { ...body.proof, payload: foreign.payload } } })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ msg: 'Invalid proof: Unknown payload' })
    await connector.disconnect()
  })

  it('two users connect the dev wallet in turn: each gets a wallet of their own, funded, and both bind without a conflict', async () => {
    const bindThroughDevWallet = async (session: Session) => {
      const connector = newConnector()
      const { payload } = (await session.call('POST', '/wallet/ton-proof/payload')).body as { payload: string }
      const { statuses } = await connect(connector, { auto: 'approve', tonProof: payload })
      const wallet = await eventually(() => statuses.find((w) => w))
      const proof = (wallet.connectItems?.tonProof as { proof: object }).proof
      const bound = await session.call('POST', '/wallet/ton-proof/check', {
        body: { address: wallet.account.address, network: wallet.account.chain, public_key: wallet.account.publicKey, proof: { ...proof, state_init: wallet.account.walletStateInit } },
      })
      await connector.disconnect()
      return { address: wallet.account.address, bound }
    }
    const [ann, ben] = [await s.ts.login(6101), await s.ts.login(6102)]
    expect(await s.ton.chain.balance(s.ton.devWallet.keyForUser(6101).address)).toBe(0n)

    const first = await bindThroughDevWallet(ann)
    const second = await bindThroughDevWallet(ben)

    expect(first.address).toBe(s.ton.devWallet.keyForUser(6101).address)
    expect(second.address).toBe(s.ton.devWallet.keyForUser(6102).address)
    expect(first.address).not.toBe(second.address)
    expect([first.bound.status, second.bound.status]).toEqual([200, 200])
    expect(await s.ton.chain.balance(first.address)).toBe(toNano('1000'))
    // The same user again: the same wallet, still theirs.
    expect((await bindThroughDevWallet(ann)).address).toBe(first.address)
    // A connection of no user the backend knows is answered by the default key.
    const anonymous = await fetch(`${s.ton.url}/ton-proof/payload`, { method: 'POST' }).then((r) => r.json() as Promise<{ payload: string }>)
    const connector = newConnector()
    const { statuses } = await connect(connector, { auto: 'approve', tonProof: anonymous.payload })
    expect((await eventually(() => statuses.find((w) => w))).account.address).toBe(s.ton.devWallet.key.address)
    await connector.disconnect()
  })

  it('a rejected transaction gives the dapp UserRejectsError; a rejected connection too', async () => {
    const requests: PendingRequest[] = []
    const off = s.ton.devWallet.onRequest((r) => requests.push(r))
    try {
      const connector = newConnector()
      const { statuses } = await connect(connector)
      const connectReq = await eventually(() => requests.find((r) => r.kind === 'connect'))
      // The page's Approve button.
      expect((await fetch(`${s.ton.url}/dev-wallet/api/requests/${connectReq.id}/approve`, { method: 'POST' })).status).toBe(200)
      await eventually(() => statuses.find((w) => w))

      const sending = connector.sendTransaction({
        validUntil: Math.floor(Date.now() / 1000) + 60,
        messages: [{ address: friendly(s.ton.treasuryAddress), amount: '1000000', payload: commentPayload('axiom:mint:1') }],
      })
      const txReq = await eventually(() => requests.find((r) => r.kind === 'transaction'))
      expect(txReq.details).toMatchObject({ messages: [{ amount: '1000000', comment: 'axiom:mint:1' }] })
      const state = await (await fetch(`${s.ton.url}/dev-wallet/api/state`)).json()
      expect(state.requests.map((r: any) => r.id)).toContain(txReq.id)
      expect((await fetch(`${s.ton.url}/dev-wallet/api/requests/${txReq.id}/reject`, { method: 'POST' })).status).toBe(200)
      await expect(sending).rejects.toBeInstanceOf(UserRejectsError)

      const refused = newConnector()
      const { errors } = await connect(refused, { auto: 'reject' })
      const err = await eventually(() => errors[0])
      expect(err).toBeInstanceOf(UserRejectsError)
      expect(refused.connected).toBe(false)
    } finally {
      off()
    }
  })

  it('serves the approval page', async () => {
    const res = await fetch(s.ton.devWallet.universalLink)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    expect(html).toContain('AXIOM Dev Wallet')
    expect(html).toContain('Approve')
  })
})
