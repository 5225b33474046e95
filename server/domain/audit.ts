import { allRows, big, run, str } from '../db/sql.ts'
import type { ServerContext } from './context.ts'

/**
 * The audit log: an append-only record of money and security events (`audit_log`, migration 17; a
 * trigger refuses any change or deletion). Each entry is written in the transaction of what it
 * records, so one is never there without the other. Who did it is the context's `actor`: `system`
 * (the worker's passes, the watcher), `operator:<name>` (an admin command, AXIOM_OPERATOR or the
 * OS user), `user:<user id>` (a user's own act, such as ending a session). Read with
 * `npm run admin -- audit`.
 */

/** What the log records. */
export type AuditEvent =
  | 'payment.activated'
  | 'payment.refunded'
  | 'payment.kept'
  | 'payment.ignored'
  | 'payment.held'
  | 'payout.signed'
  | 'payout.paid'
  | 'payout.failed'
  | 'payout.retried'
  | 'payout.settled'
  | 'payout.unmatched'
  | 'sweep.signed'
  | 'sweep.paid'
  | 'sweep.cancelled'
  | 'sale.held'
  | 'sale.approved'
  | 'sale.rejected'
  | 'sale.cancelled'
  | 'breaker.tripped'
  | 'breaker.cleared'
  | 'breaker.changed'
  | 'breaker.paused'
  | 'breaker.resumed'
  | 'price.set'
  | 'session.revoked'
  | 'session.ended'
  | 'admin.command'

export const SYSTEM_ACTOR = 'system'

export interface AuditEntry {
  readonly id: bigint
  readonly at: number
  readonly actor: string
  readonly event: string
  readonly subject: string | null
  readonly detail: Record<string, unknown>
}

const json = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x))

/** Appends one entry, in the context's transaction (if any), by the context's actor. */
export const audit = async (ctx: ServerContext, event: AuditEvent, subject: string | bigint | null, detail: Record<string, unknown> = {}): Promise<void> => {
  await run(
    ctx.db,
    'INSERT INTO audit_log (at, actor, event, subject, detail) VALUES (?, ?, ?, ?, ?)',
    ctx.now(),
    ctx.actor ?? SYSTEM_ACTOR,
    event,
    subject === null ? null : String(subject),
    json(detail),
  )
}

/** Entries after `afterId`, oldest first, whose event starts with `event` (if given): at most `limit`. */
export const auditEntries = async (ctx: ServerContext, o: { afterId?: bigint; event?: string; limit?: number } = {}): Promise<AuditEntry[]> => {
  const rows = await allRows(
    ctx.db,
    `SELECT id, at, actor, event, subject, detail FROM audit_log WHERE id > ? ${o.event ? 'AND event LIKE ?' : ''} ORDER BY id LIMIT ?`,
    o.afterId ?? 0n,
    ...(o.event ? [`${o.event.replace(/[%_\\]/g, '')}%`] : []),
    o.limit ?? 1000,
  )
  return rows.map((r) => ({
    id: big(r, 'id'),
    at: Number(big(r, 'at')),
    actor: str(r, 'actor'),
    event: str(r, 'event'),
    subject: r.subject === null || r.subject === undefined ? null : str(r, 'subject'),
    detail: JSON.parse(str(r, 'detail')) as Record<string, unknown>,
  }))
}
