import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { adminCli } from '../../scripts/drill-restore.ts'
import { BALANCES_SQL, COUNTS_SQL, diffStates, ledgerStateOf, stateKey, TOTALS_SQL, type LedgerState } from '../../scripts/drill/ledger-state.ts'
import { createWorkload } from '../../scripts/drill/workload.ts'
import { DEV_BOT_TOKEN, runAdminCommand, startServer, type RunningServer } from '../../server/main.ts'
import { signInitDataFor } from '../support/init-data.ts'

/**
 * npm run admin -- backup FILE on SQLite: the real CLI, in a process of its own, copies the database
 * while the backend (in this process) keeps writing through its API, one write after another. The
 * state after every write is read, so the copy must be exactly one of them: one taken between the
 * moment the CLI started and the moment it ended. A backend then runs on the copy.
 */
const dir = mkdtempSync(join(tmpdir(), 'axiom-sqlite-backup-'))
const open: RunningServer[] = []
afterAll(async () => {
  for (const s of open) await s.close().catch(() => undefined)
  rmSync(dir, { recursive: true, force: true })
})

const stateOf = (file: string): LedgerState => {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true })
  db.defaultSafeIntegers(true)
  try {
    // One read transaction: the three reads see one moment.
    return db.transaction(() => ledgerStateOf(db.prepare(BALANCES_SQL).all() as any[], db.prepare(TOTALS_SQL).all() as any[], db.prepare(COUNTS_SQL).all() as any[]))()
  } finally {
    db.close()
  }
}

const toNano = (s: string) => {
  const [w, f = ''] = s.split('.')
  return (BigInt(w!) * 1_000_000_000n + BigInt((f + '000000000').slice(0, 9))).toString()
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe('npm run admin -- backup on SQLite', () => {
  it('copies the database as of one moment while the backend writes, and a backend serves the copy', async () => {
    const live = join(dir, 'live.db')
    const copy = join(dir, 'copy.db')
    const server = await startServer({ port: 0, dbPath: live, rateLimits: null, priceTickMs: 1_000 })
    open.push(server)
    // states[i]: the state after i writes of the workload (one writer). A bond commits twice (its
    // creation, then its payment), so midStates[i] is the state inside write i + 1 when it is a bond.
    const states: string[] = []
    const midStates: string[] = []
    const work = createWorkload({
      server,
      db: live,
      workers: 1,
      afterEach: (n) => void (states[n] = stateKey(stateOf(live))),
      midWrite: (n) => void (midStates[n] = stateKey(stateOf(live))),
    })
    await work.register(8)
    states[0] = stateKey(stateOf(live))
    work.start()
    await work.waitFor(15)

    const before = work.done()
    const cli = await adminCli(live, ['backup', copy])
    const after = work.done()
    // Writes after the copy, until one changed the ledger (a refused write changes nothing).
    const copied = stateOf(copy)
    for (let n = after + 1; diffStates(copied, stateOf(live)).length === 0 && n <= after + 200; n++) await work.waitFor(n)
    await work.stop()

    expect(cli.code).toBe(0)
    expect(cli.output).toMatch(new RegExp(`^backup ${copy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+\\.\\d\\d MiB \\(\\d+ bytes, \\d+ pages\\) in \\d+ ms$`))
    // The backend went on writing while the CLI ran.
    expect(after).toBeGreaterThan(before)

    // The copy is the state after exactly k writes, k between the CLI's start and its end (or the one
    // write in flight then, committed but not yet answered), or a bond's state between its two commits
    // (k + 0.5): never a mix of two. A refused write leaves the state as it was, so one state can stand
    // at several k: any of them in that window will do.
    const key = stateKey(copied)
    const matches = [...states.flatMap((s, k) => (s === key ? [k] : [])), ...midStates.flatMap((s, k) => (s === key ? [k + 0.5] : []))]
    expect(matches, `the copy matches no state the writes went through`).not.toEqual([])
    expect(
      matches.some((k) => k >= before && k <= after + 1),
      `the copy is the state after ${matches.join(', ')} writes, not one between ${before} and ${after + 1}`,
    ).toBe(true)
    expect(diffStates(copied, stateOf(live)).length, 'writes after the copy changed the live database').toBeGreaterThan(0)
    // A single file: no -wal beside it is needed to read it.
    expect(new BetterSqlite3(copy, { readonly: true }).pragma('journal_mode', { simple: true })).toBe('delete')

    // Restore: a backend on the copy, the CLI's verify-totals, and every balance through the API.
    await server.close()
    open.splice(open.indexOf(server), 1)
    const restored = await startServer({ port: 0, dbPath: copy, rateLimits: null, priceTickMs: 1_000 })
    open.push(restored)
    expect(await adminCli(copy, ['verify-totals'])).toEqual({ code: 0, output: 'platform totals agree with the rows' })
    const ledger = await restored.admin.ledger()
    expect(ledger.credited).toBe(ledger.balances + ledger.locked + ledger.withdrawals + ledger.linkFunds + ledger.penalties)
    for (const [id, balances] of copied.balances) {
      const reg = await fetch(`${restored.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ init_data: signInitDataFor({ id: Number(id) }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN) }),
      })
      const { token } = (await reg.json()) as { token: string }
      const me = (await (await fetch(`${restored.url}/api/user/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, string>
      expect(`${toNano(me.balance_token!)} ${toNano(me.task_balance!)} ${toNano(me.referral_balance!)}`, `user ${id}`).toBe(balances)
    }
  }, 60_000)

  it('never overwrites a file: an existing target is refused and left as it was', async () => {
    const live = join(dir, 'small.db')
    await runAdminCommand(live, ['maintenance', 'off'])
    const target = join(dir, 'taken.db')
    writeFileSync(target, 'an operator file')
    const before = sha(target)
    const cli = await adminCli(live, ['backup', target])
    expect(cli.code).toBe(1)
    expect(cli.output).toBe(`${target} exists: a backup never overwrites a file; name a new one`)
    expect(sha(target)).toBe(before)
  })

  it('puts the backup on the audit log, with who made it and where', async () => {
    const live = join(dir, 'audited.db')
    await runAdminCommand(live, ['maintenance', 'off'])
    const target = join(dir, 'audited-copy.db')
    process.env.AXIOM_OPERATOR = 'carol'
    try {
      expect((await adminCli(live, ['backup', target])).code).toBe(0)
    } finally {
      delete process.env.AXIOM_OPERATOR
    }
    const written: string[] = []
    await runAdminCommand(live, ['audit', '--event', 'admin.command'], (line) => void written.push(line))
    const lines = written.map((l) => JSON.parse(l) as { actor: string; detail: Record<string, unknown> })
    const backup = lines.find((l) => (l.detail.args as string[])[0] === 'backup')
    expect(backup, JSON.stringify(lines)).toBeDefined()
    expect(backup!.actor).toBe('operator:carol')
    expect(backup!.detail).toMatchObject({ args: ['backup', target], file: target, bytes: readFileSync(target).length })
  })

  it('on PostgreSQL, points to pgBackRest instead', async () => {
    // Refused before any connection: nothing listens on port 1.
    const cli = await adminCli('postgres://axiom:secret@127.0.0.1:1/axiom', ['backup', join(dir, 'pg.db')])
    expect(cli.code).toBe(1)
    expect(cli.output).toMatch(/^AXIOM_DB is PostgreSQL: back it up with pgBackRest .*docs\/deploy\.md, "Back up and restore"/)
    await expect(runAdminCommand(':memory:', ['backup', join(dir, 'mem.db')])).rejects.toThrow('name the database file in AXIOM_DB')
  })
})
