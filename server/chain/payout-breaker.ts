import { audit } from '../domain/audit.ts'
import { inTx, type ServerContext } from '../domain/context.ts'
import type { Db } from '../db/engine.ts'
import { big, getRow } from '../db/sql.ts'
import { readSetting, writeSetting } from '../domain/settings.ts'
import { queueSetting } from '../domain/user-events.ts'

/**
 * The payouts' circuit breaker (server/chain/payouts.ts): while it has a cause, no payment is signed
 * or sent (the sales stay pending or queued, never lost) and it resumes by itself when the causes
 * clear. Its causes: the operator's pause (the setting PAUSE_SETTING, `npm run admin -- payouts
 * pause|resume`), the watcher behind the chain, the hour's outflow at its limit, the treasury at its
 * reserve. Each pass records what it found (BREAKER_SETTING) for `npm run admin -- payouts`.
 */
export const PAUSE_SETTING = 'payouts_paused'
export const BREAKER_SETTING = 'payouts_breaker'
/** The window of the per-hour limit. */
export const HOUR_S = 3_600

export const isPayoutPauseOn = async (db: Db): Promise<boolean> => (await readSetting(db, PAUSE_SETTING)) === 'on'

/** The operator's pause, announced like the other settings. */
export const setPayoutPause = (ctx: ServerContext, on: boolean): Promise<void> =>
  inTx(ctx, async (ctx) => {
    const was = await isPayoutPauseOn(ctx.db)
    await writeSetting(ctx.db, PAUSE_SETTING, on ? 'on' : 'off')
    queueSetting(ctx, PAUSE_SETTING)
    if (was !== on) await audit(ctx, on ? 'breaker.paused' : 'breaker.resumed', null, {})
  })

/**
 * What has left the treasury, or may have, in the last hour: the payments in flight, and those paid
 * (confirmed on the chain, or settled by the operator) in the window. A payment signed anew counts once.
 * A sweep to the operator's cold wallet (kind `sweep`) is no payout and does not count.
 */
export const hourOutflow = async (ctx: ServerContext): Promise<bigint> =>
  big(
    (await getRow(
      ctx.db,
      `SELECT COALESCE(SUM(amount_nano), 0) AS v FROM outgoing_payments WHERE kind != 'sweep' AND (state = 'sending' OR (state = 'paid' AND updated_at > ?))`,
      ctx.now() - HOUR_S,
    ))!,
    'v',
  )

/** What the last payout pass found: no cause, the payments go; else why they wait. */
export interface BreakerState {
  readonly causes: ReadonlyArray<string>
  /** When the pass found it (the server's unix seconds). */
  readonly at: number
}

const sameCauses = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && [...a].sort().every((c, i) => c === [...b].sort()[i])

/** Records what the pass found; the breaker's trip (from no cause to some), a change of its causes while it holds, and its clearing go to the audit log. */
export const recordBreaker = (ctx: ServerContext, state: BreakerState): Promise<void> =>
  inTx(ctx, async (ctx) => {
    const before = (await readBreaker(ctx.db))?.causes ?? []
    await writeSetting(ctx.db, BREAKER_SETTING, JSON.stringify(state))
    if (before.length === 0 && state.causes.length > 0) await audit(ctx, 'breaker.tripped', null, { causes: state.causes })
    else if (before.length > 0 && state.causes.length === 0) await audit(ctx, 'breaker.cleared', null, { was: before })
    // Held for another reason than before (the lag cleared but the reserve ran low): the record says so.
    else if (before.length > 0 && !sameCauses(before, state.causes)) await audit(ctx, 'breaker.changed', null, { was: before, causes: state.causes })
  })

export const readBreaker = async (db: Db): Promise<BreakerState | null> => {
  const v = await readSetting(db, BREAKER_SETTING)
  if (v === null) return null
  try {
    const s = JSON.parse(v) as BreakerState
    return Array.isArray(s.causes) && typeof s.at === 'number' ? s : null
  } catch {
    return null
  }
}
