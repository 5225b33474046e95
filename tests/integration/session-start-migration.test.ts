import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../server/db/migrations.ts'
import { startServer } from '../../server/main.ts'

const dir = mkdtempSync(join(tmpdir(), 'axiom-session-start-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const DAY = 86_400
const T = 1_780_000_000

/** Sessions signed in before the backend kept their sign-in time (SQLite): they still end 30 days after it. */
describe('session start migration (SQLite)', () => {
  it('reckons a kept session began 30 days before its first refresh token expires, so rotation never extends it', async () => {
    const path = join(dir, 'axiom.db')
    const db = new Database(path)
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)')
    const before = MIGRATIONS.findIndex((m) => typeof m === 'string' && m.includes('session_started_at'))
    expect(before).toBeGreaterThan(0)
    for (let v = 0; v < before; v++) {
      const step = MIGRATIONS[v]!
      db.exec(typeof step === 'string' ? step : step.sqlite)
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(v + 1)
    }
    // A session signed in at T and rotated at T + 7 days: its spent token and its current one, as the old backend wrote them.
    const current = 'the-current-refresh-token-of-a-session-from-before'
    const hash = (token: string) => createHash('sha256').update(token).digest('hex')
    db.exec(`INSERT INTO users (id, telegram_id, name, ref_code, created_at) VALUES (1, 7001, 'a', 'r1', ${T})`)
    db.prepare('INSERT INTO refresh_tokens (hash, user_id, family, expires_at, used_at) VALUES (?, 1, ?, ?, ?)').run(hash('spent'), 'fam-old', T + 30 * DAY, T + 7 * DAY)
    db.prepare('INSERT INTO refresh_tokens (hash, user_id, family, expires_at, used_at) VALUES (?, 1, ?, ?, NULL)').run(hash(current), 'fam-old', T + 37 * DAY)
    db.close()

    let now = T + 29 * DAY
    const server = await startServer({ port: 0, dbPath: path, priceTickMs: 3_600_000, settleEveryMs: 3_600_000, rateLimits: null, now: () => now })
    try {
      const started = await server.ctx.db.all<{ session_started_at: bigint }>(`SELECT session_started_at FROM refresh_tokens WHERE family = 'fam-old'`)
      expect(started.map((r) => Number(r.session_started_at))).toEqual([T, T])
      const refresh = (token: string) =>
        fetch(`${server.url}/api/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: token }) })
      // Day 29: refreshed as before.
      const r = await refresh(current)
      expect(r.status).toBe(200)
      const { refresh: next } = (await r.json()) as { refresh: string }
      // Day 30 and a second: the session is over although its newest token is a day old.
      now = T + 30 * DAY + 1
      const late = await refresh(next)
      expect(late.status).toBe(401)
      expect(await late.json()).toEqual({ msg: 'Session expired: sign in again' })
    } finally {
      await server.close()
    }
  })
})
