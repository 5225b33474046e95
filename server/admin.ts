import { userInfo } from 'node:os'
import { pathToFileURL } from 'node:url'
import { createAdmin } from './admin-ops.ts'
import { defaultConfig, DEFAULT_DB_PATH } from './config/config.ts'
import { inTx, type ServerContext } from './domain/context.ts'
import { audit, auditEntries } from './domain/audit.ts'
import { openCluster } from './cluster/open-cluster.ts'
import { openEngine } from './db/open-engine.ts'
import { BALANCE_COLUMNS, type BalanceColumn } from './domain/ledger.ts'
import { createPriceFeed } from './domain/price-walk.ts'
import { noQueue } from './domain/events.ts'
import { DomainError, InvalidInput } from './domain/errors.ts'
import { MAX_PRICE_MOVE_PERCENT, priceMoveText, setRecordedPrice } from './domain/recorded-price.ts'
import { heldPayments, outgoingPayments, retryOutgoing, settleOutgoing, type OutgoingState } from './chain/payment-rows.ts'
import { formatNano, requireNano } from './domain/money.ts'
import { allRows, big, getRow, str } from './db/sql.ts'
import { hourOutflow, isPayoutPauseOn, readBreaker, setPayoutPause } from './chain/payout-breaker.ts'
import { approveHeldSale, heldSales, rejectHeldSale } from './domain/sale-payouts.ts'
import { payoutLimitsFromEnv } from './chain/payout-limits.ts'
import { DEFAULT_PRODUCTION_PAYOUT_LIMITS, NO_PAYOUT_LIMITS } from './config/config.ts'
import { auditBackup, backupLine, backupSqlite } from './db/sqlite-backup.ts'
import { COIN } from '../core/domain/constants.ts'

const USAGE = `usage: npm run admin -- <command>   (database: AXIOM_DB, default ${DEFAULT_DB_PATH})
  maintenance on|off                       switch maintenance mode
  member <telegramId> [off]                make a user a community member (or not)
  revoke <telegramId>                      end every session of a user (they sign in again with Telegram)
  credit <telegramId> <amount> [balance]   credit tokens; balance: ${BALANCE_COLUMNS.join(' | ')} (default balance_token)
  mark-paid <mintId>                       a bond's GRAM payment arrived: activate it
  collective <percent>                     set the collective bonus, e.g. 0.25
  users                                    list users and balances, one JSON line each
  verify-totals                            recompute the platform totals from the rows and report any drift
  backup <file>                            SQLite: a consistent copy of the database into a new file, while it serves
                                           (PostgreSQL: pgBackRest, docs/deploy.md "Back up and restore")
  price set <ton> [--force]                record the price now, in GRAM per AXIOM (production's price source);
                                           a move of more than ${MAX_PRICE_MOVE_PERCENT}% from the last price needs --force
  audit [--event <prefix>] [--after <id>] [--limit <n>]
                                           the audit log (money and security events, admin commands), one JSON line each
  payments held                            list the payments into the treasury held unconfirmed (AXIOM_TON_API_CONFIRM disagreed)
  payouts                                  the payouts' breaker: whether payments go, and why not
  payouts pause | resume                   stop every payment (sales and refunds wait, nothing is lost) | let them go
  payouts held                             list the sales held over a payout limit
  payouts all | <state>                    list outgoing payments (sales, refunds, cold sweeps); state: queued | sending | paid | failed | cancelled
  payout approve <id>                      release a held sale to be paid (no limit holds it again)
  payout reject <id>                       refuse a held sale: its tokens go back to the balance they came from
  payout retry <id>                        sign a failed outgoing payment anew
  payout settle <id> <note…>               mark a failed outgoing payment settled by hand (paid outside AXIOM)`

export const DRIFT = 'platform totals drifted:\n'

/** Who runs the admin commands, for the audit log: AXIOM_OPERATOR, else the OS user. */
const operatorActor = (): string => {
  const named = process.env.AXIOM_OPERATOR?.trim()
  let who = named
  if (!who) {
    try {
      who = userInfo().username
    } catch {
      who = 'unknown'
    }
  }
  return `operator:${who}`
}

/** `audit [--event <prefix>] [--after <id>] [--limit <n>]`, or the usage text. */
const parseAuditArgs = (args: ReadonlyArray<string>): { event?: string; afterId?: bigint; limit?: number } | string => {
  const o: { event?: string; afterId?: bigint; limit?: number } = {}
  for (let i = 0; i < args.length; i += 2) {
    const [flag, v] = [args[i], args[i + 1]]
    if (v === undefined) return USAGE
    if (flag === '--event' && /^[a-z.]{1,40}$/.test(v)) o.event = v
    else if (flag === '--after' && /^\d{1,18}$/.test(v)) o.afterId = BigInt(v)
    else if (flag === '--limit' && /^\d{1,6}$/.test(v) && Number(v) > 0) o.limit = Number(v)
    else return USAGE
  }
  return o
}

/**
 * The breaker as the operator reads it: the pause, what the running payouts last found (the watcher's
 * lag and the treasury's balance are known to them only), the hour's outflow and the held sales, and
 * the limits this environment names.
 */
const breakerText = async (ctx: ServerContext): Promise<string> => {
  const paused = await isPayoutPauseOn(ctx.db)
  const last = await readBreaker(ctx.db)
  let limits = NO_PAYOUT_LIMITS
  try {
    limits = payoutLimitsFromEnv(process.env, process.env.NODE_ENV === 'production' ? DEFAULT_PRODUCTION_PAYOUT_LIMITS : NO_PAYOUT_LIMITS)
  } catch (e) {
    return `${(e as Error).message}`
  }
  const ton = (n: bigint | null) => (n === null ? 'off' : `${formatNano(n)} ${COIN}`)
  const lines = [
    paused ? 'payouts PAUSED by the operator (npm run admin -- payouts resume)' : 'payouts not paused by the operator',
    last === null
      ? 'the payouts have not run on this database yet'
      : last.causes.length === 0
        ? `payments go (as the payouts found at ${new Date(last.at * 1000).toISOString()})`
        : `payments WAIT (as the payouts found at ${new Date(last.at * 1000).toISOString()}):\n${last.causes.map((c) => `  - ${c}`).join('\n')}`,
    `outflow of the last hour: ${formatNano(await hourOutflow(ctx))} ${COIN}`,
    `sales held for approval: ${(await heldSales(ctx)).length} (npm run admin -- payouts held)`,
    `limits in this environment: per sale ${ton(limits.maxSaleNano)}, per user a day ${ton(limits.maxUserDayNano)}, per hour ${ton(limits.maxHourNano)}, ` +
      `watcher lag ${limits.maxLagS === null ? 'off' : `${limits.maxLagS} s`}, treasury reserve ${ton(limits.treasuryReserveNano)}`,
    await sweepText(ctx),
  ]
  return lines.join('\n')
}

/**
 * The cold sweeps (server/chain/cold-sweep.ts) as the operator reads them: how many went, and the
 * last one; the cold wallet and the float are the worker's (AXIOM_COLD_ADDRESS, AXIOM_TREASURY_FLOAT).
 */
const sweepText = async (ctx: ServerContext): Promise<string> => {
  const byState = await allRows(ctx.db, `SELECT state, COUNT(*) AS n, COALESCE(SUM(amount_nano), 0) AS v FROM outgoing_payments WHERE kind = 'sweep' GROUP BY state ORDER BY state`)
  if (byState.length === 0) return 'cold sweeps: none yet (npm run admin -- payouts all lists them)'
  const last = (await getRow(ctx.db, `SELECT id, state, amount_nano, to_address, updated_at FROM outgoing_payments WHERE kind = 'sweep' ORDER BY id DESC LIMIT 1`))!
  const counts = byState.map((r) => `${big(r, 'n')} ${str(r, 'state')} (${formatNano(big(r, 'v'))} ${COIN})`).join(', ')
  return `cold sweeps: ${counts}; the last #${big(last, 'id')} ${str(last, 'state')}, ${formatNano(big(last, 'amount_nano'))} ${COIN} to ${str(last, 'to_address')} at ${new Date(Number(big(last, 'updated_at')) * 1000).toISOString()}`
}

/**
 * `backup <file>`: SQLite's online backup of the database file into a new file, read by a connection
 * of its own while servers write (server/db/sqlite-backup.ts); the database is not opened otherwise,
 * so nothing is migrated or created. The backup made goes on the audit log, as every admin command.
 * PostgreSQL is refused, pointing to pgBackRest.
 */
const backupCommand = async (dbPath: string, argv: ReadonlyArray<string>): Promise<string> => {
  if (argv.length !== 2) return USAGE
  const made = await backupSqlite(dbPath, argv[1]!)
  if ('refused' in made) throw new InvalidInput(made.refused)
  auditBackup(dbPath, operatorActor(), argv, made)
  return backupLine(made)
}

/** A line written to stdout, waiting while the reader is behind (a long listing stays in constant memory). */
const stdoutLine = (line: string): Promise<void> | void => {
  if (process.stdout.write(`${line}\n`)) return
  return new Promise((resolve) => process.stdout.once('drain', () => resolve()))
}

/**
 * Runs one admin command against a database file; returns the text to print. `users` writes its
 * lines through `write` as it reads them and returns nothing more. `verify-totals` answers starting
 * with DRIFT when the totals differ from the rows (the CLI then exits with 1).
 */
export const runAdminCommand = async (
  dbPath: string,
  argv: ReadonlyArray<string>,
  write: (line: string) => Promise<void> | void = stdoutLine,
): Promise<string> => {
  const [command, a, b, c] = argv
  if (command === 'backup') return backupCommand(dbPath, argv)
  const engine = await openEngine(dbPath)
  // The CLI has no sockets. On PostgreSQL the running instances hear of its changes (NOTIFY) and push
  // them to their sockets; on SQLite a running server sees them on its next read.
  const cluster = await openCluster(dbPath, engine, { retryMs: 60_000 })
  const ctx: ServerContext = {
    db: engine,
    engine,
    config: { ...defaultConfig(), dbPath },
    now: () => Math.floor(Date.now() / 1000),
    events: noQueue,
    live: { deliver: (changes) => cluster.publish({ type: 'changes', changes }) },
    price: createPriceFeed(defaultConfig().priceSeed),
    telegram: null,
    actor: operatorActor(),
  }
  const admin = createAdmin(ctx)
  try {
    // Every command the operator runs is on the record, with who ran it, before it runs.
    await audit(ctx, 'admin.command', null, { args: argv })
    switch (command) {
      case 'maintenance':
        if (a !== 'on' && a !== 'off') return USAGE
        await admin.setMaintenance(a === 'on')
        return `maintenance ${a}`
      case 'member':
        if (!a) return USAGE
        await admin.setMember(a, b !== 'off')
        return `user ${a} community member: ${b !== 'off'}`
      case 'revoke': {
        if (!a || !/^\d{1,20}$/.test(a)) return USAGE
        const n = await admin.revokeSessions(a)
        return `revoked ${n} session${n === 1 ? '' : 's'} of user ${a}`
      }
      case 'credit':
        if (!a || !b) return USAGE
        return `credited ${await admin.credit(a, b, (c ?? 'balance_token') as BalanceColumn)} to ${c ?? 'balance_token'} of ${a}`
      case 'mark-paid': {
        if (!a || !/^\d+$/.test(a)) return USAGE
        const mint = await admin.markPaid(a)
        return `bond #${mint.id} is ${mint.status}`
      }
      case 'collective':
        if (!a) return USAGE
        await admin.setCollectiveBonus(a)
        return `collective bonus ${a} %`
      case 'price': {
        const rest = argv.slice(2)
        const force = rest.includes('--force')
        const values = rest.filter((v) => v !== '--force')
        if (a !== 'set' || values.length !== 1) return USAGE
        const text = values[0]!
        const nano = requireNano('price', text)
        const at = ctx.now()
        const set = await inTx(ctx, async (tx) => {
          const done = await setRecordedPrice(tx.db, at, nano, { force })
          await audit(tx, 'price.set', null, { priceNano: nano, previousNano: done.previousNano, forced: done.forced })
          return done
        })
        const line = `price ${text} ${COIN} per AXIOM from ${new Date(at * 1000).toISOString()}`
        if (set.previousNano === null) return `${line} (the first price recorded)`
        const move = `${priceMoveText(set.previousNano, nano)}% from ${formatNano(set.previousNano)}`
        return set.forced ? `${line}: FORCED, ${move} (more than ${MAX_PRICE_MOVE_PERCENT}%)` : `${line} (${move})`
      }
      case 'audit': {
        const opts = parseAuditArgs(argv.slice(1))
        if (typeof opts === 'string') return opts
        for (const e of await auditEntries(ctx, opts)) {
          await write(JSON.stringify({ id: e.id.toString(), at: new Date(e.at * 1000).toISOString(), actor: e.actor, event: e.event, subject: e.subject, detail: e.detail }))
        }
        return ''
      }
      case 'payments': {
        if (a !== 'held') return USAGE
        return JSON.stringify(
          (await heldPayments(ctx)).map((p) => ({
            txHash: p.txHash,
            lt: p.lt.toString(),
            at: new Date(p.txNow * 1000).toISOString(),
            from: p.from,
            amountTon: formatNano(p.amountNano),
            comment: p.comment,
            mintId: p.mintId === null ? null : p.mintId.toString(),
            why: p.detail,
          })),
          null,
          2,
        )
      }
      case 'payouts': {
        const json = (v: unknown) => JSON.stringify(v, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)
        if (a === 'pause' || a === 'resume') {
          await setPayoutPause(ctx, a === 'pause')
          return a === 'pause'
            ? 'payouts paused: no payment is signed or sent until npm run admin -- payouts resume'
            : `payouts resumed by the operator${(await readBreaker(engine))?.causes.some((c) => !c.startsWith('paused')) ? ' (the breaker may still hold them: npm run admin -- payouts)' : ''}`
        }
        if (a === 'held') return json((await heldSales(ctx)).map((h) => ({
              id: h.id,
              telegramId: h.telegramId,
              tokenAmount: formatNano(h.tokenAmount),
              amountTon: formatNano(h.amountNano),
              address: h.address,
              createdAt: h.createdAt,
              reason: h.reason,
            })))
        if (a) return json((await outgoingPayments(ctx, a === 'all' ? undefined : [a as OutgoingState])).map(({ boc: _boc, ...r }) => r))
        return await breakerText(ctx)
      }
      case 'payout': {
        if ((a === 'approve' || a === 'reject') && b && /^\d+$/.test(b)) {
          if (a === 'approve') return (await approveHeldSale(ctx, BigInt(b))) ? `sale #${b} approved: it is paid on a next pass` : `sale #${b} is not held`
          return (await rejectHeldSale(ctx, BigInt(b))) ? `sale #${b} rejected: its tokens are back with the user` : `sale #${b} is not held`
        }
        if ((a !== 'retry' && a !== 'settle') || !b || !/^\d+$/.test(b)) return USAGE
        if (a === 'retry') return (await retryOutgoing(ctx, BigInt(b))) ? `payment #${b} queued again` : `payment #${b} is not failed`
        const note = argv.slice(3).join(' ').trim()
        if (!note) return USAGE
        return (await settleOutgoing(ctx, BigInt(b), note)) ? `payment #${b} settled: ${note}` : `payment #${b} is not failed`
      }
      case 'users': {
        let n = 0
        for await (const u of admin.eachUser()) {
          await write(JSON.stringify(u))
          n++
        }
        return ''
      }
      case 'verify-totals': {
        const drift = await admin.verifyTotals()
        if (drift.length === 0) return 'platform totals agree with the rows'
        return DRIFT + drift.map((d) => `${d.column}: kept ${d.kept}, recomputed ${d.recomputed}, drift ${d.kept - d.recomputed}`).join('\n')
      }
      default:
        return USAGE
    }
  } finally {
    await cluster.close()
    await engine.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const out = await runAdminCommand(process.env.AXIOM_DB ?? DEFAULT_DB_PATH, process.argv.slice(2))
    if (out) console.log(out)
    if (out.startsWith(DRIFT)) process.exitCode = 1
  } catch (e) {
    console.error(e instanceof DomainError ? e.message : e)
    process.exitCode = 1
  }
}
