import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CursorMoved, type ChainCursor } from '../../server/main.ts'
import { startTestServer, TEST_ENGINE, type Session, type TestServer } from './support.ts'

/**
 * The chain watcher's cursor (RunningServer.readChainCursor / advanceChainCursor / creditBondPayment),
 * on the engine of the run (SQLite here, PostgreSQL in the server-postgres project).
 */
let t: TestServer
let referrer: Session
let user: Session
beforeAll(async () => {
  t = await startTestServer()
  // The buyer has a referrer: a bond credited twice would pay the referral bonus twice.
  referrer = await t.login(7300)
  user = await t.login(7301, (await referrer.call('GET', '/user/me')).body.ref_code)
})
afterAll(() => t?.close())

const at = (lt: bigint, hash: string): ChainCursor => ({ lt, txHash: hash.repeat(64 / hash.length) })

/** The referral bonuses the referrer was paid for bond `mintId`. */
const bonusesFor = async (mintId: bigint) => {
  const history = await referrer.call('GET', '/operations/history', { query: { page: 1, size: 100 } })
  return (history.body.items as Array<{ description: string }>).filter((o) => o.description === `Referral bonus for bond #${mintId}`)
}

const statusOf = async (mintId: bigint) => {
  const list = await user.call('GET', '/mint/')
  return (list.body.items as Array<{ id: number | string; status: string }>).find((m) => String(m.id) === String(mintId))?.status
}

let nextAmount = 10
const pendingBond = async (): Promise<bigint> => {
  const res = await user.call('POST', '/mint/create', { body: { amount: nextAmount++, days: 30 } })
  expect(res.status).toBe(200)
  return BigInt(res.body.mint.id)
}

describe(`the chain cursor's compare-and-set (${TEST_ENGINE})`, () => {
  it('moves only from the cursor the caller expects; anything else is refused with CursorMoved and writes nothing', async () => {
    const name = 'cas'
    expect(await t.server.readChainCursor(name)).toBeNull()
    await t.server.advanceChainCursor(name, null, at(100n, 'a1'))
    expect(await t.server.readChainCursor(name)).toEqual(at(100n, 'a1'))

    // From "nothing stored" again: someone stored one already.
    await expect(t.server.advanceChainCursor(name, null, at(200n, 'b2'))).rejects.toBeInstanceOf(CursorMoved)
    // The right hash at another lt, the right lt with another hash: neither is the stored cursor.
    await expect(t.server.advanceChainCursor(name, at(101n, 'a1'), at(200n, 'b2'))).rejects.toBeInstanceOf(CursorMoved)
    await expect(t.server.advanceChainCursor(name, at(100n, 'c3'), at(200n, 'b2'))).rejects.toBeInstanceOf(CursorMoved)
    expect(await t.server.readChainCursor(name)).toEqual(at(100n, 'a1'))

    await t.server.advanceChainCursor(name, at(100n, 'a1'), at(200n, 'b2'))
    expect(await t.server.readChainCursor(name)).toEqual(at(200n, 'b2'))
    // Cursors of other names are apart.
    expect(await t.server.readChainCursor('other')).toBeNull()
    // A logical time past 2^63-1 does not fit the column: refused before anything is written.
    await expect(t.server.advanceChainCursor(name, at(200n, 'b2'), at(1n << 63n, 'c3'))).rejects.toThrow(/logical time/)
    expect(await t.server.readChainCursor(name)).toEqual(at(200n, 'b2'))
  })

  it('two watchers moving from the same cursor at once: exactly one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `race-${round}`
      const from = round % 2 === 0 ? null : at(1n, 'ee')
      if (from) await t.server.advanceChainCursor(name, null, from)
      const tries = await Promise.allSettled(['0a', '0b', '0c', '0d'].map((h, i) => t.server.advanceChainCursor(name, from, at(10n + BigInt(i), h))))
      const won = tries.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []))
      expect(won).toHaveLength(1)
      for (const r of tries) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(CursorMoved)
      expect(await t.server.readChainCursor(name)).toEqual(at(10n + BigInt(won[0]!), ['0a', '0b', '0c', '0d'][won[0]!]!))
    }
  })

  it('law: the stored cursor is the last move whose expected cursor was the stored one', async () => {
    let run = 0
    const hashes = ['01', '02', '03']
    const cursorArb = fc.option(fc.record({ lt: fc.bigInt({ min: 0n, max: 3n }), txHash: fc.constantFrom(...hashes) }), { nil: null })
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ expected: cursorArb, next: fc.record({ lt: fc.bigInt({ min: 0n, max: 3n }), txHash: fc.constantFrom(...hashes) }) }), { maxLength: 8 }), async (moves) => {
        const name = `law-${run++}`
        let model: ChainCursor | null = null
        for (const { expected, next } of moves) {
          const fits = expected === null ? model === null : model !== null && model.lt === expected.lt && model.txHash === expected.txHash
          const moved = await t.server.advanceChainCursor(name, expected, next).then(
            () => true,
            (e: unknown) => {
              if (!(e instanceof CursorMoved)) throw e
              return false
            },
          )
          expect(moved).toBe(fits)
          if (fits) model = next
          expect(await t.server.readChainCursor(name)).toEqual(model)
        }
      }),
      { numRuns: 25 },
    )
  })
})

describe('a bond credited with its cursor step', () => {
  it('credits and moves the cursor together; a stale cursor or a refused credit writes neither', async () => {
    const name = 'credit'
    const bond = await pendingBond()
    const amount = (await t.server.bondPayment(bond))!.amountNano

    // A stale cursor: the bond is not credited.
    await t.server.advanceChainCursor(name, null, at(5n, 'aa'))
    await expect(t.server.creditBondPayment(bond, amount, { name, expected: null, next: at(6n, 'bb') })).rejects.toBeInstanceOf(CursorMoved)
    expect(await statusOf(bond)).toBe('pending')
    expect(await t.server.readChainCursor(name)).toEqual(at(5n, 'aa'))

    // The right cursor: both at once.
    const row = await t.server.creditBondPayment(bond, amount, { name, expected: at(5n, 'aa'), next: at(6n, 'bb') })
    expect(row.status).toBe('active')
    expect(await statusOf(bond)).toBe('active')
    expect(await t.server.readChainCursor(name)).toEqual(at(6n, 'bb'))

    // A second payment of the same bond: refused by the bond, and the cursor stays where it was.
    await expect(t.server.creditBondPayment(bond, amount, { name, expected: at(6n, 'bb'), next: at(7n, 'cc') })).rejects.toThrow(/not pending/)
    expect(await t.server.readChainCursor(name)).toEqual(at(6n, 'bb'))
    expect(await bonusesFor(bond)).toHaveLength(1)

    // An under-payment likewise.
    const other = await pendingBond()
    const due = (await t.server.bondPayment(other))!.amountNano
    await expect(t.server.creditBondPayment(other, due - 1n, { name, expected: at(6n, 'bb'), next: at(7n, 'cc') })).rejects.toThrow(/below/)
    expect(await statusOf(other)).toBe('pending')
    expect(await t.server.readChainCursor(name)).toEqual(at(6n, 'bb'))
  })

  it('two credits of one payment from the same cursor: one activates the bond, the other moves nothing', async () => {
    const name = 'credit-race'
    const bond = await pendingBond()
    const amount = (await t.server.bondPayment(bond))!.amountNano
    const step = { name, expected: null, next: at(9n, 'dd') }
    const tries = await Promise.allSettled([t.server.creditBondPayment(bond, amount, step), t.server.creditBondPayment(bond, amount, step)])
    expect(tries.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const lost = tries.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(lost.reason).toBeInstanceOf(CursorMoved)
    expect(await statusOf(bond)).toBe('active')
    expect(await t.server.readChainCursor(name)).toEqual(at(9n, 'dd'))
    expect(await bonusesFor(bond)).toHaveLength(1)
  })
})
