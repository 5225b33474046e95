import { describe, expect, it } from 'vitest'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { ok } from '../fakes/fake-http-transport.ts'
import { succeed } from '../fakes/run.ts'
import { withdrawHistoryRow } from '../fakes/wire-rows.ts'

const row = withdrawHistoryRow

describe('the withdraw history: a sale waiting its cooling period', () => {
  it('decodes release_at on a cooling sale, and a row without it (an older backend, any other sale) as none', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /withdraw/history', ok({ items: [row(1, { release_at: 1780003600 }), row(2)], total: 2 }))
    const page = await succeed(api.withdrawHistory())
    expect(page.items.map((w) => [w.id, w.status, w.release_at])).toEqual([
      ['1', 'pending', 1780003600],
      ['2', 'pending', undefined],
    ])
  })

  it('refuses a release_at that is not a number of seconds (the wire is checked, not trusted)', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /withdraw/history', ok({ items: [row(1, { release_at: 'soon' })], total: 1 }))
    await expect(succeed(api.withdrawHistory())).rejects.toThrow()
  })
})
