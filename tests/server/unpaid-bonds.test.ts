import { afterAll, beforeAll, expect, it } from 'vitest'
import { MintList, MintPayment } from '../../core/domain/entities/mint.ts'
import { UNPAID_BOND_EXPIRY_S } from '../../server/domain/mints.ts'
import { decode, startTestServer, type TestServer } from './support.ts'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

it('a bond never paid is cancelled after its expiry, and a paid one is not', async () => {
  const user = await t.login(3001)
  const unpaid = decode(MintPayment, (await user.call('POST', '/mint/create', { body: { amount: 10, days: 30 } })).body).mint
  const paid = decode(MintPayment, (await user.call('POST', '/mint/create', { body: { amount: 20, days: 30 } })).body).mint
  await t.server.markMintPaid(Number(paid.id))

  t.clock.advance(UNPAID_BOND_EXPIRY_S - 1)
  await t.server.admin.settleAll()
  const statusOf = async (id: unknown) => {
    const fresh = await t.login(3001)
    const list = decode(MintList, (await fresh.call('GET', '/mint/')).body)
    return list.items.find((m) => String(m.id) === String(id))?.status
  }
  expect(await statusOf(unpaid.id)).toBe('pending')

  t.clock.advance(2)
  await t.server.admin.settleAll()
  expect(await statusOf(unpaid.id)).toBe('canceled')
  expect(await statusOf(paid.id)).toBe('active')
})
