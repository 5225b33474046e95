import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

/** The histories are paged by page and size, 10 a page unless asked otherwise (spec §7, §9); plain HTTP. */
let t: TestServer
let user: Session

beforeAll(async () => {
  t = await startTestServer()
  user = await t.login(8801)
  // The welcome credit is operation 1; eleven more make 12 operations (and 88 tokens to sell: welcome tokens are not sold).
  for (let i = 1; i <= 11; i++) await t.server.admin.credit(8801, String(i + 2), 'balance_token')
  for (let i = 0; i < 12; i++) {
    const res = await user.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: 1 + i, address: SOME_ADDRESS } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  }
})
afterAll(() => t.close())

/** The operations history as raw JSON, from a query string written by hand. */
const raw = async (path: string): Promise<{ status: number; body: any }> => {
  const res = await fetch(`${t.url}/api${path}`, { headers: { authorization: `Bearer ${user.token}` } })
  return { status: res.status, body: await res.json() }
}

describe('GET /operations/history paging', () => {
  it('answers 10 a page by default, with the total', async () => {
    const { status, body } = await raw('/operations/history')
    expect(status).toBe(200)
    expect(body.items).toHaveLength(10)
    expect(body).toMatchObject({ page: 1, size: 10, limit: 10 })
    // 12 operations before the sales, and one per sale.
    expect(body.total).toBe(24)
  })

  it('takes page and size, and pages through without gaps or repeats', async () => {
    const ids: number[] = []
    for (let page = 1; page <= 3; page++) {
      const { status, body } = await raw(`/operations/history?page=${page}&size=10`)
      expect(status).toBe(200)
      expect(body.page).toBe(page)
      ids.push(...body.items.map((o: { id: number }) => o.id))
    }
    expect(ids).toHaveLength(24)
    expect(new Set(ids).size).toBe(24)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect((await raw('/operations/history?page=3&size=10')).body.items).toHaveLength(4)
  })

  it('takes limit as an alias of size; both sent must agree', async () => {
    expect((await raw('/operations/history?limit=5')).body).toMatchObject({ size: 5, limit: 5 })
    expect((await raw('/operations/history?limit=5')).body.items).toHaveLength(5)
    expect((await raw('/operations/history?size=5&limit=5')).body.items).toHaveLength(5)
    expect(await raw('/operations/history?size=5&limit=7')).toEqual({ status: 422, body: { msg: 'size and limit differ' } })
    expect(await raw('/operations/history?size=0')).toEqual({ status: 422, body: { msg: 'size must be between 1 and 1000' } })
    expect(await raw('/operations/history?size=ten')).toEqual({ status: 422, body: { msg: 'size must be a whole number' } })
  })
})

describe('GET /withdraw/history paging', () => {
  it('answers 10 a page by default, with the total; size and limit page it', async () => {
    const first = await raw('/withdraw/history')
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ total: 12, page: 1, size: 10 })
    expect(first.body.items).toHaveLength(10)
    expect((await raw('/withdraw/history?page=2&size=10')).body.items).toHaveLength(2)
    expect((await raw('/withdraw/history?page=2&limit=10')).body.items).toHaveLength(2)
  })
})

describe('the other lists', () => {
  it('keep their page of 300 by default', async () => {
    expect((await raw('/mint/')).body).toMatchObject({ page: 1, limit: 300 })
  })

  it("number the user's own bonds on every page, newest first, whatever other users' ids", async () => {
    const other = await t.login(8802)
    const mine: number[] = []
    for (let i = 0; i < 5; i++) {
      // Another user's bond between each of ours: ids and numbers part.
      expect((await other.call('POST', '/mint/create', { body: { amount: 2, days: 30 } })).status).toBe(200)
      const res = await user.call('POST', '/mint/create', { body: { amount: 2 + i, days: 30 } })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      mine.push(Number(res.body.mint.id))
    }
    const pages = []
    for (let page = 1; page <= 4; page++) {
      const { status, body } = await raw(`/mint/?page=${page}&limit=2`)
      expect(status).toBe(200)
      expect(body.total).toBe(5)
      pages.push(body.items.map((m: { id: number; number: number }) => [m.id, m.number]))
    }
    const [b1, b2, b3, b4, b5] = mine
    expect(pages).toEqual([[[b5, 5], [b4, 4]], [[b3, 3], [b2, 2]], [[b1, 1]], []])
    expect((await raw('/mint/?page=2&limit=3')).body.items.map((m: { number: number }) => m.number)).toEqual([2, 1])
  })
})
