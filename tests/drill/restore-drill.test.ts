import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { drillPassed, reportText, runRestoreDrill } from '../../scripts/drill-restore.ts'
import { drillUnavailable, sampleGlobalOptions } from '../../scripts/drill/pg-cluster.ts'

/**
 * npm run drill:restore, smaller: Debian's PostgreSQL archiving to pgBackRest, the backend writing,
 * a base backup while it writes, a restore to a point in time in a fresh data folder, and the
 * balances, totals and counts of that point compared with the restored ones. Needs Debian's
 * `postgresql` and `pgbackrest` (npm test's pretest installs them where it may); skipped, saying why,
 * where they are missing.
 */
const skipped = drillUnavailable()
if (skipped) console.warn(`tests/drill/restore-drill.test.ts SKIPPED: ${skipped}`)

/** Whether something accepts connections on 127.0.0.1:port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1')
    s.once('connect', () => (s.destroy(), resolve(true)))
    s.once('error', () => resolve(false))
  })

describe.skipIf(skipped !== null)('the PostgreSQL restore drill (pgBackRest, point in time)', () => {
  it('brings back every balance, total and count of the target, and nothing written after it', async () => {
    const report = await runRestoreDrill({ workers: 2, writesPerPhase: 25, users: 10, lateUsers: 2 })
    console.log(reportText(report))
    // The writes after the target changed the state, so a restore past it could not pass unnoticed.
    expect(report.changedAfterTarget).toBeGreaterThan(0)
    // The base backup was taken while the backend wrote.
    expect(report.writesDuringBackup).toBeGreaterThan(0)
    expect(report.writesBefore).toBeGreaterThanOrEqual(50 + report.writesDuringBackup)
    expect(report.writesAfter).toBeGreaterThan(0)
    expect(report.differences).toEqual([])
    expect(report.apiDifferences).toEqual([])
    expect(report.lateUsers).toBe(2)
    expect(report.lateUsersPresent).toBe(0)
    expect(report.verifyTotals).toEqual({ code: 0, output: 'platform totals agree with the rows' })
    // PostgreSQL replayed up to the target and stopped before the first transaction after it.
    expect(report.lastReplayed).not.toBeNull()
    expect(report.stoppedBefore).not.toBeNull()
    expect(Date.parse(report.lastReplayed!.replace(' ', 'T').replace(/\+00$/, 'Z'))).toBeLessThanOrEqual(Date.parse(report.target.replace(' ', 'T').replace(/\+00$/, 'Z')))
    expect(Date.parse(report.stoppedBefore!.replace(' ', 'T').replace(/\+00$/, 'Z'))).toBeGreaterThan(Date.parse(report.target.replace(' ', 'T').replace(/\+00$/, 'Z')))
    expect(report.backupInfo).toMatch(/full backup: \S+F/)
    // The repository is encrypted, as deploy/pgbackrest/pgbackrest.conf asks.
    expect(report.backupInfo).toContain('cipher: aes-256-cbc')
    expect(report.seconds.recovery).toBeGreaterThan(0)
    expect(drillPassed(report)).toBe(true)
  }, 120_000)

  it('stops its PostgreSQL and removes its folder when it fails midway', async () => {
    let port = 0
    let root = ''
    const failure = runRestoreDrill({
      workers: 1,
      writesPerPhase: 5,
      users: 3,
      log: (line) => {
        const m = /cluster on 127\.0\.0\.1:(\d+), archiving to (\S+)\/repo/.exec(line)
        if (m) {
          port = Number(m[1])
          root = m[2]!
        }
        // Fail with the cluster, the backend and the writers running, right after the base backup.
        if (line.startsWith('base backup')) throw new Error('stopped by the test')
      },
    })
    await expect(failure).rejects.toThrow('stopped by the test')
    expect(port).toBeGreaterThan(0)
    expect(root).not.toBe('')
    expect(existsSync(root)).toBe(false)
    expect(await listening(port)).toBe(false)
  }, 120_000)
})

describe("the drill's setup", () => {
  it("runs with the production sample's pgBackRest options (deploy/pgbackrest/pgbackrest.conf)", () => {
    const options = new Map(sampleGlobalOptions())
    expect(options.get('repo1-cipher-type')).toBe('aes-256-cbc')
    expect(options.get('repo1-retention-full')).toBe('2')
    expect(options.has('pg1-path')).toBe(false)
  })

  it('says what this machine lacks to run it', () => {
    expect(drillUnavailable({ ...process.env, AXIOM_PGBACKREST: '/nonexistent/pgbackrest' })).toMatch(/^the restore drill needs pgbackrest \(sudo apt-get install -y pgbackrest/)
    expect(drillUnavailable({ ...process.env, AXIOM_DRILL_PG_BIN: '/nonexistent' })).toMatch(/PostgreSQL's server programs/)
  })
})
