import { closeSync, existsSync, fsyncSync, linkSync, lstatSync, openSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import BetterSqlite3 from 'better-sqlite3'
import { isPostgresUrl } from './engine.ts'

export type BackupOutcome =
  | { readonly refused: string }
  | { readonly file: string; readonly bytes: number; readonly pages: number; readonly ms: number }

/** The refusal on PostgreSQL: its backups are pgBackRest's (continuous WAL archiving, base backups, point-in-time restore). */
export const POSTGRES_BACKUP_REFUSAL =
  'AXIOM_DB is PostgreSQL: back it up with pgBackRest (continuous WAL archiving and base backups, restore to a point in time); ' +
  'docs/deploy.md, "Back up and restore", and deploy/pgbackrest/pgbackrest.conf'

/** Every page in one step: the copy is one read transaction of the source, so one moment of it. */
const ALL_PAGES = 0x7fffffff

/**
 * A consistent copy of the SQLite database at `source` into a new file `target`, while servers go on
 * writing it (SQLite's online backup API, better-sqlite3's `backup()`). The pages are copied in one
 * step, inside one read transaction: in WAL mode that never blocks a writer, and the copy is the
 * database as of one moment, never a mix of two. It is written beside `target` under a temporary
 * name, checked (`PRAGMA quick_check`), made a single self-contained file (rollback journal, no
 * -wal), flushed to disk and only then linked to `target`, which never replaces an existing file
 * (link fails on one). Refuses PostgreSQL, `:memory:`, a missing source, an existing target.
 */
export const backupSqlite = async (source: string, target: string): Promise<BackupOutcome> => {
  if (isPostgresUrl(source)) return { refused: POSTGRES_BACKUP_REFUSAL }
  if (source === ':memory:' || source.startsWith('file:')) return { refused: `cannot back up ${source}: name the database file in AXIOM_DB` }
  if (!existsSync(source)) return { refused: `no database at ${source}` }
  const file = resolve(target)
  if (lstatSync(file, { throwIfNoEntry: false })) return { refused: `${file} exists: a backup never overwrites a file; name a new one` }
  if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory()) return { refused: `no folder ${dirname(file)} for the backup` }
  if (resolve(source) === file) return { refused: 'the backup must be another file than the database' }

  const partial = join(dirname(file), `.${basename(file)}.partial-${process.pid}-${Date.now()}`)
  const started = performance.now()
  const db = new BetterSqlite3(source, { fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    const { totalPages } = await db.backup(partial, { progress: () => ALL_PAGES })
    const copy = new BetterSqlite3(partial)
    try {
      const check = copy.pragma('quick_check', { simple: true })
      if (check !== 'ok') throw new Error(`the copy failed its check: ${String(check)}`)
      // A single file that opens anywhere, read-only too; a server opening it turns WAL on again.
      copy.pragma('journal_mode = DELETE')
    } finally {
      copy.close()
    }
    const fd = openSync(partial, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    try {
      linkSync(partial, file)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { refused: `${file} exists: a backup never overwrites a file; name a new one` }
      throw e
    }
    const dir = openSync(dirname(file), 'r')
    try {
      fsyncSync(dir)
    } finally {
      closeSync(dir)
    }
    return { file, bytes: statSync(file).size, pages: totalPages, ms: Math.round(performance.now() - started) }
  } finally {
    db.close()
    for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`]) rmSync(leftover, { force: true })
  }
}

/**
 * Puts a backup made on the audit log of the database it copied (event `admin.command`, by `actor`,
 * with the file, its size and time), through a connection of its own as the backup's: the database
 * is still not migrated or created. A database of before the audit log (no `audit_log`) records nothing.
 */
export const auditBackup = (source: string, actor: string, args: ReadonlyArray<string>, made: { file: string; bytes: number; ms: number }, now = Math.floor(Date.now() / 1000)) => {
  const db = new BetterSqlite3(source, { fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit_log'`).get()) return
    db.prepare('INSERT INTO audit_log (at, actor, event, subject, detail) VALUES (?, ?, ?, ?, ?)').run(
      now,
      actor,
      'admin.command',
      null,
      JSON.stringify({ args, file: made.file, bytes: made.bytes, ms: made.ms }),
    )
  } finally {
    db.close()
  }
}

/** The CLI's line for a backup made: where, how big, how long. */
export const backupLine = (b: { file: string; bytes: number; pages: number; ms: number }): string =>
  `backup ${b.file}: ${(b.bytes / 1048576).toFixed(2)} MiB (${b.bytes} bytes, ${b.pages} pages) in ${b.ms} ms`
