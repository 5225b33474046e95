import { describe, expect, it } from 'vitest'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { ok } from '../fakes/fake-http-transport.ts'
import { succeed } from '../fakes/run.ts'
import { withdrawHistoryRow } from '../fakes/wire-rows.ts'

const row = withdrawHistoryRow

describe('the withdraw history: a sale under review', () => {
  it('decodes under_review: true on a held sale, and a row without it (an older backend, an ordinary sale) as not under review', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /withdraw/history', ok({ items: [row(1, { under_review: true }), row(2), row(3, { under_review: false })], total: 3 }))
    const page = await succeed(api.withdrawHistory())
    expect(page.items.map((w) => [w.id, w.status, w.under_review])).toEqual([
      ['1', 'pending', true],
      ['2', 'pending', undefined],
      ['3', 'pending', false],
    ])
  })

  it('refuses an under_review that is not a boolean (the wire is checked, not trusted)', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /withdraw/history', ok({ items: [row(1, { under_review: 'yes' })], total: 1 }))
    await expect(succeed(api.withdrawHistory())).rejects.toThrow()
  })
})
