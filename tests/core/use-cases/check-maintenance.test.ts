import { describe, expect, it } from 'vitest'
import { NetworkError } from '../../../core/index.ts'
import { checkMaintenance } from '../../../core/use-cases/check-maintenance.ts'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { answer, ok } from '../fakes/fake-http-transport.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { failure, succeed } from '../fakes/run.ts'

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

  it('a server failure is told as §8 says (a toast, the error haptic) and resolves as unknown (null)', async () => {
    const { api, http, notifier, platform } = httpApiHarness()
    http.on('GET /maintenance/', answer(500, 'down'))

    expect(await succeed(checkMaintenance({ api }))).toBeNull()
    expect(notifier.texts).toEqual(['Error: down'])
    expect(platform.haptics).toEqual(['error'])
  })

  it('fails with the network error, for the policy to tell', async () => {
    const api = new FakeAxiomApi()
    api.failWith('maintenance', new NetworkError({}))

    expect((await failure(checkMaintenance({ api })))._tag).toBe('NetworkError')
  })

  it('asks without the user token', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /maintenance/', ok({ detail: 'Maintenance mode is disabled' }))

    await succeed(checkMaintenance({ api }))

    expect(http.requests[0]!.bearer).toBeUndefined()
  })
})
