import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type Session, type TestServer } from './support.ts'

/** GET /user/referrals is paged like the other lists: page and limit (1 and 300 by default), newest first, with the total. */
let t: TestServer
let alice: Session
beforeAll(async () => {
  t = await startTestServer()
  alice = await t.login(9001)
  const code = (await alice.call('GET', '/user/me')).body.ref_code as string
  for (let i = 1; i <= 5; i++) await t.login(9001 + i, code)
})
afterAll(() => t.close())

const names = (body: { items: Array<{ name: string }> }) => body.items.map((r) => r.name)

describe('GET /user/referrals, paged', () => {
  it('answers page 1 of 300 by default, with the total', async () => {
    const body = (await alice.call('GET', '/user/referrals')).body
    expect({ ...body, items: names(body) }).toEqual({
      items: ['User 9006', 'User 9005', 'User 9004', 'User 9003', 'User 9002'],
      total: 5,
      page: 1,
      limit: 300,
    })
  })

  it('walks the pages newest first, each referral on one page only', async () => {
    const page = async (n: number) => (await alice.call('GET', '/user/referrals', { query: { page: n, limit: 2 } })).body
    expect(names(await page(1))).toEqual(['User 9006', 'User 9005'])
    expect(names(await page(2))).toEqual(['User 9004', 'User 9003'])
    expect(await page(3)).toMatchObject({ items: [{ name: 'User 9002' }], total: 5, page: 3, limit: 2 })
    expect(await page(4)).toMatchObject({ items: [], total: 5 })
    expect(names((await alice.call('GET', '/user/referrals', { query: { size: 4 } })).body)).toHaveLength(4)
  })

  it('refuses a bad page or limit with 422', async () => {
    expect((await alice.call('GET', '/user/referrals', { query: { limit: 1001 } })).status).toBe(422)
    expect((await alice.call('GET', '/user/referrals', { query: { page: 0 } })).status).toBe(422)
    expect((await alice.call('GET', '/user/referrals', { query: { page: 'x' } })).status).toBe(422)
  })
})
