import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from './raw-http.ts'
import { startTestServer, TEST_ENGINE, type Session, type TestServer } from './support.ts'

/**
 * A bond waiting for its payment costs its buyer nothing, so a user may hold only a few at once
 * (`maxPendingMints`, 5 by default): one more is refused with a message the app shows, until one is
 * paid, cancelled or expired. Requests written by hand on a raw socket.
 */

const CAP = 5
const CAP_MSG = `You have ${CAP} bonds waiting for payment: pay or cancel one before creating another`

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

const create = (who: Session, amount: number) => {
  const body = JSON.stringify({ amount, days: 30 })
  return rawRequest(
    t.server.port,
    ['POST /api/mint/create HTTP/1.1', 'Host: 127.0.0.1', `Authorization: Bearer ${who.token}`, 'Content-Type: application/json', `Content-Length: ${body.length}`, '', body].join('\r\n'),
  )
}

const pendingOf = async (who: Session) =>
  ((await who.call('GET', '/mint/')).body.items as Array<{ status: string }>).filter((m) => m.status === 'pending').length

describe(`a user's bonds waiting for payment are capped (${TEST_ENGINE})`, () => {
  it('the 6th unpaid bond is refused with 400 and a message; nothing is created; another user is unaffected', async () => {
    const a = await t.login(1)
    const ids: number[] = []
    for (let i = 0; i < CAP; i++) {
      const r = await create(a, 10 + i)
      expect(r.status).toBe(200)
      ids.push(r.json.mint.id)
    }
    const refused = await create(a, 20)
    expect([refused.status, refused.json]).toEqual([400, { msg: CAP_MSG }])
    expect(await pendingOf(a)).toBe(CAP)
    expect((await create(await t.login(2), 10)).status).toBe(200)

    // Cancelling one frees a place; paying one frees another.
    expect((await a.call('POST', `/mint/${ids[0]}/cancel`)).status).toBe(200)
    expect((await create(a, 21)).status).toBe(200)
    expect((await create(a, 22)).status).toBe(400)
    await t.server.markMintPaid(ids[1]!)
    expect((await create(a, 23)).status).toBe(200)
    expect(await pendingOf(a)).toBe(CAP)
  })

  it('bonds that expired unpaid free their places', async () => {
    const before = await t.login(3)
    for (let i = 0; i < CAP; i++) expect((await create(before, 10 + i)).status).toBe(200)
    expect((await create(before, 30)).status).toBe(400)
    t.clock.advance(16 * 60)
    await t.server.admin.settleAll()
    // Signed in again: the access token of 16 minutes ago has expired.
    const a = await t.login(3)
    expect(await pendingOf(a)).toBe(0)
    expect((await create(a, 31)).status).toBe(200)
  })

  it('creates sent at once never leave more than the cap waiting', async () => {
    const a = await t.login(4)
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => create(a, 40 + i)))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(CAP)
    for (const r of replies.filter((r) => r.status !== 200)) expect([r.status, r.json]).toEqual([400, { msg: CAP_MSG }])
    expect(await pendingOf(a)).toBe(CAP)
  })
})
