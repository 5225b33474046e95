import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServer } from '../../server/main.ts'
import { completeDuePositions } from '../../server/domain/settle-pass.ts'
import { makeDue, seedScale } from '../../scripts/scale-seed.ts'

/** A small run of bench:scale's seed and pass: the seeded platform is consistent, and the pass completes exactly the positions made due. */
const dir = mkdtempSync(join(tmpdir(), 'axiom-scale-smoke-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('bench:scale seed and pass, small', () => {
  it('seeds the L proportions, with totals that agree with the rows, and a pass completes only the due', async () => {
    const path = join(dir, 'axiom.db')
    const now = Math.floor(Date.now() / 1000)
    const counts = seedScale(path, 400, now)
    expect(counts).toEqual({ users: 400, bonds: 1200, activeBonds: 360, stakes: 400, operations: 8000, idempotencyKeys: 120, unpaidBonds: 0 })
    const server = await startServer({ port: 0, dbPath: path, priceTickMs: 3_600_000, heartbeatMs: 3_600_000, settleEveryMs: 3_600_000, rateLimits: null })
    try {
      expect(await server.admin.verifyTotals()).toEqual([])
      expect((await completeDuePositions(server.ctx)).completed).toBe(0)
    } finally {
      await server.close()
    }
    expect(makeDue(path, 150, now)).toBe(150)
    const again = await startServer({ port: 0, dbPath: path, priceTickMs: 3_600_000, heartbeatMs: 3_600_000, settleEveryMs: 3_600_000, rateLimits: null, now: () => now })
    try {
      expect(await completeDuePositions(again.ctx)).toMatchObject({ completed: 150, aborted: false })
      const active = await again.ctx.db.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM mints WHERE status = 'active'`)
      expect(active!.n).toBe(210n)
      expect(await again.admin.verifyTotals()).toEqual([])
    } finally {
      await again.close()
    }
  })
})
