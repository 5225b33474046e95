import { describe, expect, it } from 'vitest'
import { startTestServer, TEST_ENGINE } from './support.ts'

describe(`health and readiness (${TEST_ENGINE})`, () => {
  it('/health answers while the process runs; /ready only while its database answers', async () => {
    const t = await startTestServer()
    const health = await fetch(`${t.url}/health`)
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }])
    const ready = await fetch(`${t.url}/ready`)
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', db: TEST_ENGINE }])

    await t.server.ctx.engine.close()
    const down = await fetch(`${t.url}/ready`)
    expect(down.status).toBe(503)
    expect(await down.json()).toMatchObject({ status: 'unavailable' })
    expect((await fetch(`${t.url}/health`)).status).toBe(200)
    await t.close()
  })
})
