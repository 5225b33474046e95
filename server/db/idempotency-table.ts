import { getRow, num, run, str } from './sql.ts'
import type { Db } from './engine.ts'

/** A create's stored answer: the request's fingerprint, the JSON body and when it was stored (unix seconds). */
export interface StoredAnswer {
  readonly fingerprint: string
  readonly body: string
  readonly createdAt: number
}

export const storedAnswer = async (db: Db, userId: bigint, route: string, key: string): Promise<StoredAnswer | null> => {
  const row = await getRow(db, 'SELECT * FROM idempotency WHERE user_id = ? AND route = ? AND key = ?', userId, route, key)
  return row ? { fingerprint: str(row, 'fingerprint'), body: str(row, 'body'), createdAt: num(row, 'created_at') } : null
}

export const storeAnswer = (db: Db, userId: bigint, route: string, key: string, answer: StoredAnswer) =>
  run(
    db,
    `INSERT INTO idempotency (user_id, route, key, fingerprint, status_code, body, created_at) VALUES (?, ?, ?, ?, 200, ?, ?)
     ON CONFLICT(user_id, route, key) DO UPDATE SET fingerprint = excluded.fingerprint, body = excluded.body, created_at = excluded.created_at`,
    userId,
    route,
    key,
    answer.fingerprint,
    answer.body,
    answer.createdAt,
  )

/** Fingerprint keys outlive their window by a day at most; header keys are kept for a week. */
export const pruneIdempotency = (db: Db, now: number) =>
  run(db, `DELETE FROM idempotency WHERE created_at < ? AND (key LIKE 'auto:%' OR created_at < ?)`, now - 86_400, now - 7 * 86_400)
