import type { Db } from '../db/engine.ts'
import { getRow, run } from '../db/sql.ts'

/** The collective bonus every new bond gets, in percent scaled by 1e4 (0.1 %). */
export const DEFAULT_COLLECTIVE_BONUS = 1_000n

export const readSetting = async (db: Db, key: string): Promise<string | null> => {
  const row = await getRow(db, 'SELECT value FROM settings WHERE key = ?', key)
  return row ? String(row.value) : null
}

export const writeSetting = async (db: Db, key: string, value: string): Promise<void> => {
  await run(db, 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', key, value)
}

/** Read on every request, so a flip by the admin CLI in another process is seen at once. */
export const isMaintenanceOn = async (db: Db): Promise<boolean> => (await readSetting(db, 'maintenance')) === 'on'

export const collectiveBonus = async (db: Db): Promise<bigint> => {
  const v = await readSetting(db, 'collective_bonus')
  return v === null ? DEFAULT_COLLECTIVE_BONUS : BigInt(v)
}
