import type { Db, Engine } from '../db/engine.ts'
import type { ServerContext } from './context.ts'
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

/**
 * The settings an instance keeps in memory, on PostgreSQL only: every change (the admin CLI's too)
 * is announced to every instance (a `setting` or `collective` change), which forgets them. As a
 * listening connection that reconnects may have missed an announcement, nothing is kept longer than
 * SETTINGS_KEPT_MS. On SQLite they are read each time: the admin CLI writes the file from another
 * process, which no bus reaches.
 */
const kept = new WeakMap<Engine, { generation: number; values: Map<string, { value: string | null; at: number }> }>()
export const SETTINGS_KEPT_MS = 5_000

const setting = async (ctx: ServerContext, key: string): Promise<string | null> => {
  // Inside a transaction, the transaction's own view.
  if (ctx.engine.dialect !== 'postgres' || ctx.db !== ctx.engine) return readSetting(ctx.db, key)
  let cache = kept.get(ctx.engine)
  if (!cache) kept.set(ctx.engine, (cache = { generation: 0, values: new Map() }))
  const hit = cache.values.get(key)
  if (hit && Date.now() - hit.at < SETTINGS_KEPT_MS) return hit.value
  const generation = cache.generation
  const value = await readSetting(ctx.db, key)
  // A change announced while this read was under way wins: the value read may be the old one.
  if (cache.generation === generation) cache.values.set(key, { value, at: Date.now() })
  return value
}

/** A setting changed somewhere: this instance reads the settings again. */
export const forgetSettings = (engine: Engine): void => {
  const cache = kept.get(engine)
  if (!cache) return
  cache.generation++
  cache.values.clear()
}

export const isMaintenanceOn = async (ctx: ServerContext): Promise<boolean> => (await setting(ctx, 'maintenance')) === 'on'

/** The collective bonus from its setting's text (null: never set). */
export const collectiveBonusOf = (v: string | null): bigint => (v === null ? DEFAULT_COLLECTIVE_BONUS : BigInt(v))

/** The collective bonus's setting as a column of another statement (its text, or null). */
export const COLLECTIVE_BONUS_COLUMN = `(SELECT value FROM settings WHERE key = 'collective_bonus')`

export const collectiveBonus = async (ctx: ServerContext): Promise<bigint> => collectiveBonusOf(await setting(ctx, 'collective_bonus'))
