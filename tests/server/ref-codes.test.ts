import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newRefCode } from '../../server/domain/users.ts'
import { call, signInitData, startTestServer, type TestServer } from './support.ts'

/**
 * Referral codes begin with a letter or a digit: one that began with "-" read as an option to the
 * CLI (`axiom login <initData> --ref -x…` refused it as ambiguous), and about 1 in 32 random codes did.
 */
const SHAPE = /^[A-Za-z0-9][A-Za-z0-9_-]{7}$/

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})

describe('referral codes', () => {
  it('are 8 URL-safe characters that begin with a letter or a digit, over many codes', () => {
    const codes = Array.from({ length: 5_000 }, newRefCode)
    expect(codes.filter((c) => !SHAPE.test(c))).toEqual([])
    expect(new Set(codes).size).toBe(codes.length)
  })

  it('are what registered users get', async () => {
    for (let id = 8_801; id < 8_841; id++) {
      const reg = await call(server.url, 'POST', '/auth/register', { body: { init_data: signInitData({ id }, server.clock.now) } })
      expect(reg.status).toBe(200)
      const me = await call(server.url, 'GET', '/user/me', { token: reg.body.token })
      expect(me.body.ref_code).toMatch(SHAPE)
    }
  })
})
