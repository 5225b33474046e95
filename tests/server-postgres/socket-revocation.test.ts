import { describe, expect, it } from 'vitest'
import { call, closed, openSocket, testDatabase } from '../server/support.ts'
import { instancesForFile, register } from './instances.ts'

/**
 * Two backends on one PostgreSQL, as behind one address: a session revoked through one (its spent
 * refresh token presented again) closes that session's socket held by the other at once, with
 * 4001 "Session revoked", while another session of the same user goes on.
 */
const { instance, socketOn } = instancesForFile()
const login = register

describe('a session revoked on one instance', () => {
  it('closes its socket on the other with 4001 "Session revoked"; the user’s other session stays', async () => {
    const db = await testDatabase()
    const a = await instance(db)
    const b = await instance(db)
    const victim = await login(a.url, 9701)
    const other = await login(a.url, 9701)
    const onB = await socketOn(b.url, victim.token)
    const otherOnB = await socketOn(b.url, other.token)
    const rotated = await call(a.url, 'POST', '/auth/refresh', { body: { refresh_token: victim.refresh } })
    expect(rotated.status).toBe(200)
    const done = closed(onB.ws)
    // The spent refresh token again, through A: the family is revoked there and announced to B.
    expect((await call(a.url, 'POST', '/auth/refresh', { body: { refresh_token: victim.refresh } })).status).toBe(401)
    expect(await done).toEqual({ code: 4001, reason: 'Session revoked' })
    await new Promise((r) => setTimeout(r, 200))
    expect(otherOnB.ws.readyState).toBe(otherOnB.ws.OPEN)
    // B refuses the revoked family's newest token too.
    const again = await openSocket(b.url, '/api/ws/')
    const refused = closed(again)
    again.send(rotated.body.token)
    expect(await refused).toEqual({ code: 4001, reason: 'Session revoked' })
  })
})
