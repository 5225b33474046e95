import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3, { type Database } from 'better-sqlite3'
import { migrate } from './migrations.ts'

/**
 * Opens (creating its folder) and migrates the database. Integers come back as BigInt so money never
 * passes through a double. WAL lets the admin CLI write while a server reads the same file.
 */
export const openDb = (path: string): Database => {
  if (path !== ':memory:' && !path.startsWith('file:')) mkdirSync(dirname(path), { recursive: true })
  const db = new BetterSqlite3(path)
  db.defaultSafeIntegers(true)
  if (path !== ':memory:') {
    db.pragma('journal_mode = WAL')
    // 64 MiB of page cache instead of the default 2 MiB: at a million users (a 3 GB file) reads over
    // many users' rows, /mint/'s reads asked the OS for 3.7 pages, 2.8 with this (docs/benchmarks.md).
    db.pragma('cache_size = -65536')
  }
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  db.pragma('synchronous = NORMAL')
  migrate(db)
  // The planner's statistics, as SQLite asks of a long-lived connection: sampled (analysis_limit) so
  // a million-user file is analysed in milliseconds, refreshed where the tables changed, on open and
  // then hourly by the periodic pass (server/periodic-pass.ts). Without them the batch
  // completion of due positions was planned through the status index (docs/benchmarks.md).
  db.pragma('analysis_limit = 1000')
  db.pragma('optimize = 0x10002')
  return db
}
