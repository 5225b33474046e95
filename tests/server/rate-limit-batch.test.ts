import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchedRateLimitStore } from '../../server/db/rate-limit-table.ts'
import type { Db } from '../../server/db/engine.ts'
import { startTestServer, type TestServer } from './support.ts'

/**
 * The general rule's count, kept in each instance and added to the shared table in batches: two
 * stores on one database stand for two instances. Alone, one counts exactly; together, a client gets
 * at most `unseenMax` requests more than the limit per other instance.
 */
let t: TestServer
let db: Db
beforeAll(async () => {
  t = await startTestServer({ priceTickMs: 3_600_000 })
  db = t.server.ctx.engine
})
afterAll(() => t.close())

const WINDOW = 60_000
let keys = 0
const freshKey = () => `general:user:${900_000 + ++keys}`
const inTable = async (key: string) => Number((await db.one<{ hits: bigint }>('SELECT hits FROM rate_limit_hits WHERE key = ?', key))?.hits ?? 0n)

describe('the general rule counted in batches', () => {
  it('one instance alone counts every hit exactly, and the table gets them all', async () => {
    const store = batchedRateLimitStore(db, { flushMs: 3_600_000, unseenMax: 8 })
    const key = freshKey()
    const seen: number[] = []
    for (let i = 0; i < 40; i++) seen.push((await store.incr(key, WINDOW)).current)
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    await store.flush()
    expect(await inTable(key)).toBe(40)
  })

  it('hits counted here reach the table within the flush interval, unasked', async () => {
    const store = batchedRateLimitStore(db, { flushMs: 30, unseenMax: 100 })
    const key = freshKey()
    for (let i = 0; i < 5; i++) await store.incr(key, WINDOW)
    expect(await inTable(key)).toBe(1)
    // The flush timer's own pass, not a flush() call: wait for the table, well beyond the 30 ms interval.
    await expect.poll(() => inTable(key), { timeout: 2_000, interval: 10 }).toBe(5)
  })

  it('a client new to an instance is counted with what the other instances have sent', async () => {
    const a = batchedRateLimitStore(db, { flushMs: 3_600_000, unseenMax: 10 })
    const b = batchedRateLimitStore(db, { flushMs: 3_600_000, unseenMax: 10 })
    const key = freshKey()
    for (let i = 0; i < 30; i++) await a.incr(key, WINDOW)
    await a.flush()
    expect((await b.incr(key, WINDOW)).current).toBe(31)
  })

  it('a window that has ended starts again at 1, and says how long the new one lasts', async () => {
    let now = 1_000_000
    const store = batchedRateLimitStore(db, { flushMs: 3_600_000, unseenMax: 10, now: () => now })
    const key = freshKey()
    for (let i = 0; i < 4; i++) await store.incr(key, 1_000)
    now += 400
    expect(await store.incr(key, 1_000)).toEqual({ current: 5, ttlMs: 600 })
    now += 700
    expect(await store.incr(key, 1_000)).toEqual({ current: 1, ttlMs: 1_000 })
    await store.flush()
    expect(await inTable(key)).toBe(1)
  })

  it('a flush the database refuses keeps the hits here; at the bound a hit fails, and the next flush sends them all', async () => {
    let down = false
    // The same database, whose batched writes fail while `down`.
    const flaky: Db = { ...db, all: (text: string, ...p: unknown[]) => (down && /VALUES \(\?, \?, \?\)/.test(text) ? Promise.reject(new Error('no answer')) : db.all(text, ...p)) } as Db
    const store = batchedRateLimitStore(flaky, { flushMs: 3_600_000, unseenMax: 6 })
    const key = freshKey()
    await store.incr(key, WINDOW)
    down = true
    const seen: number[] = []
    for (let i = 0; i < 6; i++) seen.push((await store.incr(key, WINDOW)).current)
    // Six unsent: the bound.
    expect(seen).toEqual([2, 3, 4, 5, 6, 7])
    await expect(store.incr(key, WINDOW)).rejects.toThrow(/could not be sent/)
    expect(await inTable(key)).toBe(1)
    down = false
    expect((await store.incr(key, WINDOW)).current).toBe(8)
    await store.flush()
    expect(await inTable(key)).toBe(8)
  })

  it('over two instances, any order of hits lets through the limit and at most unseenMax more', async () => {
    const MAX = 30
    const UNSEEN = 6
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 40, maxLength: 120 }), async (steps) => {
        const stores = [0, 1].map(() => batchedRateLimitStore(db, { flushMs: 3_600_000, unseenMax: UNSEEN }))
        const key = freshKey()
        let accepted = 0
        let hits = 0
        // 0 and 1: a hit on that instance; 2: both hit at once.
        for (const step of steps) {
          const on = step === 2 ? [0, 1] : [step]
          const answers = await Promise.all(on.map((i) => stores[i]!.incr(key, WINDOW)))
          hits += answers.length
          accepted += answers.filter((r) => r.current <= MAX).length
        }
        expect(accepted).toBeGreaterThanOrEqual(Math.min(MAX, hits))
        expect(accepted).toBeLessThanOrEqual(MAX + UNSEEN)
        await Promise.all(stores.map((s) => s.flush()))
        expect(await inTable(key)).toBe(hits)
      }),
      { numRuns: 40 },
    )
  })
})
