import type { Database } from 'better-sqlite3'
import { getRow, run } from '../db/sql.ts'

/** The collective bonus every new bond gets, in percent scaled by 1e4 (0.1 %). */
export const DEFAULT_COLLECTIVE_BONUS = 1_000n

export const readSetting = (db: Database, key: string): string | null => {
  const row = getRow(db, 'SELECT value FROM settings WHERE key = ?', key)
  return row ? String(row.value) : null
}

export const writeSetting = (db: Database, key: string, value: string): void => {
  run(db, 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', key, value)
}

/** Read on every request, so a flip by the admin CLI in another process is seen at once. */
export const isMaintenanceOn = (db: Database): boolean => readSetting(db, 'maintenance') === 'on'

export const collectiveBonus = (db: Database): bigint => {
  const v = readSetting(db, 'collective_bonus')
  return v === null ? DEFAULT_COLLECTIVE_BONUS : BigInt(v)
}
