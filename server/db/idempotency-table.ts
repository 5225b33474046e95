import { getRow, num, run, str } from './sql.ts'
import { deleteInBatches } from './bounded-delete.ts'
import type { Db } from './engine.ts'

/** A create's stored answer: the request's fingerprint, the JSON body and when it was stored (unix seconds). */
export interface StoredAnswer {
  readonly fingerprint: string
  readonly body: string
  readonly createdAt: number
}

/**
 * How long an answer is kept: under a client's Idempotency-Key a week (a retry after the app was
 * closed still finds it); under the request's own fingerprint a day, though it answers only within
 * the dedupe window.
 */
export const KEPT_S = { header: 7 * 86_400, fingerprint: 86_400 } as const

export const storedAnswer = async (db: Db, userId: bigint, route: string, key: string): Promise<StoredAnswer | null> => {
  const row = await getRow(db, 'SELECT fingerprint, body, created_at FROM idempotency WHERE user_id = ? AND route = ? AND key = ?', userId, route, key)
  return row ? { fingerprint: str(row, 'fingerprint'), body: str(row, 'body'), createdAt: num(row, 'created_at') } : null
}

export const storeAnswer = (db: Db, userId: bigint, route: string, key: string, answer: StoredAnswer, keptS: number) =>
  run(
    db,
    `INSERT INTO idempotency (user_id, route, key, fingerprint, status_code, body, created_at, expires_at) VALUES (?, ?, ?, ?, 200, ?, ?, ?)
     ON CONFLICT(user_id, route, key) DO UPDATE SET fingerprint = excluded.fingerprint, body = excluded.body,
       created_at = excluded.created_at, expires_at = excluded.expires_at`,
    userId,
    route,
    key,
    answer.fingerprint,
    answer.body,
    answer.createdAt,
    answer.createdAt + keptS,
  )

/** Deletes the answers whose time is over, found on their expiry's index, in batches that yield. */
export const pruneIdempotency = (db: Db, now: number, o: { readonly signal?: AbortSignal } = {}) =>
  deleteInBatches(db, 'idempotency', 'expires_at < ?', [now], o)
