import { describe, expect, it } from 'vitest'
import { NetworkError } from '../../../core/index.ts'
import { checkMaintenance } from '../../../core/use-cases/check-maintenance.ts'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { answer, ok } from '../fakes/fake-http-transport.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { succeed } from '../fakes/run.ts'

describe('checkMaintenance', () => {
  it("is off when the detail reads 'Maintenance mode is disabled'", async () => {
    const api = new FakeAxiomApi()

    expect(await succeed(checkMaintenance({ api }))).toBe(false)
  })

  it('is on for any other detail', async () => {
    const api = new FakeAxiomApi()
    api.maintenanceDetail = 'Maintenance mode is enabled'

    expect(await succeed(checkMaintenance({ api }))).toBe(true)
  })

  it('is unknown (null) when the server fails, so the caller keeps what it knew', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /maintenance/', answer(500, 'down'))

    expect(await succeed(checkMaintenance({ api }))).toBeNull()
  })

  it('is unknown (null) when the network fails', async () => {
    const api = new FakeAxiomApi()
    api.failWith('maintenance', new NetworkError({}))

    expect(await succeed(checkMaintenance({ api }))).toBeNull()
  })

  it('asks without the user token', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /maintenance/', ok({ detail: 'Maintenance mode is disabled' }))

    await succeed(checkMaintenance({ api }))

    expect(http.requests[0]!.bearer).toBeUndefined()
  })
})
