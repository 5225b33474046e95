import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runAdminCommand, startServer } from '../../server/main.ts'
import { startTestServer, testDatabase, type TestServer } from './support.ts'

const dir = mkdtempSync(join(tmpdir(), 'axiom-price-'))
const servers: TestServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((t) => t.close()))
  rmSync(dir, { recursive: true, force: true })
})

describe("production's price: the ticks an operator records", () => {
  it('a backend on the recorded price refuses to start before any price is set', async () => {
    const dbPath = await testDatabase(join(dir, 'empty.db'))
    await expect(startServer({ port: 0, dbPath, priceSource: 'recorded' })).rejects.toThrow(/no price is recorded: set one with `npm run admin -- price set/)
  })

  it('quotes what `admin price set` recorded, candles cut from the ticks, a new tick read on the next price tick', async () => {
    const dbPath = await testDatabase(join(dir, 'ticks.db'))
    expect(await runAdminCommand(dbPath, ['price', 'set', '0.031'])).toMatch(/^price 0.031 GRAM per AXIOM from /)
    await expect(runAdminCommand(dbPath, ['price', 'set', '-1'])).rejects.toThrow(/price/)
    const t = await startTestServer({ dbPath, priceSource: 'recorded', priceTickMs: 60_000 })
    servers.push(t)
    const first = Math.floor(Date.now() / 1000)
    t.clock.now = first + 1
    const me = await t.login(9100)
    expect((await me.call('GET', '/price/current-price')).body.price).toBe('0.031')
    // Later seconds: the admin writes into the shared database; the backend reads it on its tick.
    await new Promise((r) => setTimeout(r, 1100))
    // +61 %: past the 20 % guard, so forced (tests/server/price-guard.test.ts tests the guard).
    await runAdminCommand(dbPath, ['price', 'set', '0.05', '--force'])
    t.clock.now = Math.floor(Date.now() / 1000) + 1
    await t.server.tick()
    const now = (await me.call('GET', '/price/current-price')).body
    expect(now.price).toBe('0.05')
    const candles = (await me.call('GET', `/price/candles?interval=1h&from_timestamp=${first - 7200}`)).body as Array<Record<string, string | number>>
    // Nothing before the first tick; the hour's candle spans both ticks.
    expect(candles.length).toBeGreaterThanOrEqual(1)
    expect(candles.length).toBeLessThanOrEqual(2)
    const last = candles[candles.length - 1]!
    expect(last.high).toBe('0.05')
    expect(last.close).toBe('0.05')
    expect(candles.map((c) => c.low)).toContain('0.031')
  })
})
