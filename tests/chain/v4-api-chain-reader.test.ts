import { toNano } from '@ton/core'
import { Effect, Exit } from 'effect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V4ApiChainReader } from '../../adapters/ton/v4-api-chain-reader.ts'
import { NetworkError } from '../../core/errors.ts'
import { DEFAULT_DEV_WALLET_BALANCE } from '../../stand-ins/chain/dev-keys.ts'
import { startStack, type Stack } from './support.ts'

let s: Stack
beforeAll(async () => {
  s = await startStack()
})
afterAll(async () => {
  await s?.close()
})

const failureOf = async (effect: Effect.Effect<bigint, NetworkError>) => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${exit.value}`)
  return exit.cause
}

/** A fetch that answers every request with the given JSON body and status. */
const answering = (body: unknown, status = 200): typeof fetch => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('V4ApiChainReader (the app and CLI wallet balance) against the local v4 API', () => {
  it('reads a wallet balance by its raw and its friendly address, and sees it fall after a transfer', async () => {
    const reader = new V4ApiChainReader(s.ton.v4Endpoint)
    const w = s.ton.chain.devWallet(1)
    expect(await Effect.runPromise(reader.balance(w.address))).toBe(DEFAULT_DEV_WALLET_BALANCE)
    expect(await Effect.runPromise(reader.balance(w.friendly))).toBe(DEFAULT_DEV_WALLET_BALANCE)

    await s.ton.chain.transfer(w, [{ to: s.ton.chain.devWallet(2).address, value: toNano('1.5') }])
    const after = await Effect.runPromise(reader.balance(w.address))
    expect(after).toBeLessThan(DEFAULT_DEV_WALLET_BALANCE - toNano('1.5') + 1n)
  })

  it('fails with NetworkError on a refused address, an unreachable node and a malformed answer', async () => {
    const reader = new V4ApiChainReader(s.ton.v4Endpoint)
    expect(String(await failureOf(reader.balance('not-an-address')))).toContain('NetworkError')
    expect(String(await failureOf(new V4ApiChainReader('http://127.0.0.1:9/').balance(s.ton.chain.devWallet(0).address)))).toContain(
      'NetworkError',
    )
    const garbled = new V4ApiChainReader('http://v4.invalid', { fetch: answering({ last: { seqno: 1 }, account: { balance: { coins: '12x' } } }) })
    expect(String(await failureOf(garbled.balance('0:' + '0'.repeat(64))))).toContain('NetworkError')
    const missing = new V4ApiChainReader('http://v4.invalid', { fetch: answering({ last: {} }) })
    expect(String(await failureOf(missing.balance('0:' + '0'.repeat(64))))).toContain('NetworkError')
  })

  it('asks for a raw address in the friendly form TonClient4 sends', async () => {
    const urls: string[] = []
    const recording: typeof fetch = async (input) => {
      urls.push(String(input))
      return new Response(JSON.stringify({ last: { seqno: 7 }, account: { balance: { coins: '5' } } }))
    }
    const w = s.ton.chain.devWallet(0)
    const reader = new V4ApiChainReader('http://v4.invalid/', { fetch: recording })
    expect(await Effect.runPromise(reader.balance(w.address))).toBe(5n)
    expect(urls).toEqual(['http://v4.invalid/block/latest', `http://v4.invalid/block/7/${w.wallet.address.toString({ urlSafe: true })}/lite`])
  })

  it('gives up on a node that does not answer within its timeout', async () => {
    const silent: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
    const reader = new V4ApiChainReader('http://v4.invalid', { fetch: silent, timeoutMs: 50 })
    expect(String(await failureOf(reader.balance('0:' + '0'.repeat(64))))).toContain('NetworkError')
  })
})
