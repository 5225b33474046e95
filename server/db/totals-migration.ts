/**
 * The platform figures of /stats/financial as running totals: triggers keep `platform_totals` in
 * step with the rows, in the same transaction as each write, whoever writes (the server, the admin
 * CLI, a restore). The totals are split in TOTAL_SHARDS rows by user, so that on PostgreSQL
 * (SERIALIZABLE) two users' transactions seldom write the same row; a reader sums the shards.
 * `npm run admin -- verify-totals` recomputes them from the rows (server/domain/platform-totals.ts).
 */
export const TOTAL_SHARDS = 16

/** The totals, in the order of the vectors below. */
export const TOTAL_COLUMNS = ['users', 'locked', 'active_bonds', 'active_stakes', 'rewards_paid', 'withdrawn', 'ton_raised'] as const
type Column = (typeof TOTAL_COLUMNS)[number]

interface Source {
  readonly table: string
  /** The column that picks the shard. */
  readonly key: string
  /** What one row adds to each total, with `R.` standing for the row. */
  readonly adds: Partial<Record<Column, string>>
}

const ACTIVE = (what: string) => `CASE WHEN R.status = 'active' THEN ${what} ELSE 0 END`
const SOURCES: ReadonlyArray<Source> = [
  { table: 'users', key: 'id', adds: { users: '1' } },
  { table: 'mints', key: 'user_id', adds: { locked: ACTIVE('R.total_amount'), active_bonds: ACTIVE('1'), ton_raised: 'COALESCE(R.paid_nano, 0)' } },
  { table: 'stakes', key: 'user_id', adds: { locked: ACTIVE('R.total_amount'), active_stakes: ACTIVE('1') } },
  { table: 'operations', key: 'user_id', adds: { rewards_paid: `CASE WHEN R.type IN ('bond_reward', 'stake_reward') THEN R.amount ELSE 0 END` } },
  { table: 'withdrawals', key: 'user_id', adds: { withdrawn: 'R.token_amount' } },
]

const of = (expr: string, row: 'NEW' | 'OLD') => expr.replace(/\bR\./g, `${row}.`)
const entries = (s: Source) => Object.entries(s.adds) as Array<[Column, string]>

/** The table, its shards, and the totals of the rows already there (in shard 0). */
const TABLE = (bigint: string) => `
  CREATE TABLE platform_totals (
    shard ${bigint} PRIMARY KEY,
    ${TOTAL_COLUMNS.map((c) => `${c} ${bigint} NOT NULL DEFAULT 0`).join(',\n    ')}
  );
  INSERT INTO platform_totals (shard) VALUES ${Array.from({ length: TOTAL_SHARDS }, (_, i) => `(${i})`).join(', ')};
  UPDATE platform_totals SET
    users = (SELECT COUNT(*) FROM users),
    locked = (SELECT COALESCE(SUM(total_amount), 0) FROM mints WHERE status = 'active')
      + (SELECT COALESCE(SUM(total_amount), 0) FROM stakes WHERE status = 'active'),
    active_bonds = (SELECT COUNT(*) FROM mints WHERE status = 'active'),
    active_stakes = (SELECT COUNT(*) FROM stakes WHERE status = 'active'),
    rewards_paid = (SELECT COALESCE(SUM(amount), 0) FROM operations WHERE type IN ('bond_reward', 'stake_reward')),
    withdrawn = (SELECT COALESCE(SUM(token_amount), 0) FROM withdrawals),
    ton_raised = (SELECT COALESCE(SUM(paid_nano), 0) FROM mints WHERE paid_nano IS NOT NULL)
  WHERE shard = 0;
`

const sqliteTriggers = (s: Source): string => {
  const apply = (row: 'NEW' | 'OLD', sign: '+' | '-') =>
    `UPDATE platform_totals SET ${entries(s)
      .map(([c, e]) => `${c} = ${c} ${sign} (${of(e, row)})`)
      .join(', ')} WHERE shard = ${row}.${s.key} % ${TOTAL_SHARDS};`
  const nonZero = (row: 'NEW' | 'OLD') => entries(s).map(([, e]) => `(${of(e, row)}) <> 0`).join(' OR ')
  const changed = [...entries(s).map(([, e]) => `(${of(e, 'OLD')}) <> (${of(e, 'NEW')})`), `OLD.${s.key} <> NEW.${s.key}`].join(' OR ')
  return `
  CREATE TRIGGER totals_${s.table}_insert AFTER INSERT ON ${s.table} WHEN ${nonZero('NEW')} BEGIN ${apply('NEW', '+')} END;
  CREATE TRIGGER totals_${s.table}_delete AFTER DELETE ON ${s.table} WHEN ${nonZero('OLD')} BEGIN ${apply('OLD', '-')} END;
  CREATE TRIGGER totals_${s.table}_update AFTER UPDATE ON ${s.table} WHEN ${changed} BEGIN ${apply('OLD', '-')} ${apply('NEW', '+')} END;`
}

export const TOTALS_SQLITE = TABLE('INTEGER') + SOURCES.map(sqliteTriggers).join('\n')

/**
 * PostgreSQL: statement-level triggers over the transition tables, one UPDATE per shard touched and
 * none when a statement changes no total. (A row-level trigger would write the same row once per
 * row changed, and PostgreSQL's updates of one row within one transaction grow ever slower.)
 */
const postgresTrigger = (s: Source): string => {
  const cols = entries(s)
  const delta = (rows: string, sign: '' | '-') =>
    `SELECT R.${s.key} % ${TOTAL_SHARDS} AS shard, ${cols.map(([c, e]) => `${sign}(${e}) AS ${c}`).join(', ')} FROM ${rows} R`
  const apply = (source: string) => `
      UPDATE platform_totals p SET ${cols.map(([c]) => `${c} = p.${c} + d.${c}`).join(', ')}
      FROM (SELECT shard, ${cols.map(([c]) => `SUM(${c}) AS ${c}`).join(', ')} FROM (${source}) x GROUP BY shard) d
      WHERE p.shard = d.shard AND (${cols.map(([c]) => `d.${c} <> 0`).join(' OR ')});`
  const events = s.table === 'users' ? (['INSERT', 'DELETE'] as const) : (['INSERT', 'UPDATE', 'DELETE'] as const)
  const referencing = { INSERT: 'NEW TABLE AS new_rows', UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows', DELETE: 'OLD TABLE AS old_rows' }
  return `
  CREATE FUNCTION platform_totals_${s.table}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN${apply(delta('new_rows', ''))}
    ELSIF TG_OP = 'DELETE' THEN${apply(delta('old_rows', '-'))}
    ELSE${apply(`${delta('new_rows', '')} UNION ALL ${delta('old_rows', '-')}`)}
    END IF;
    RETURN NULL;
  END $$;
${events
  .map(
    (e) => `  CREATE TRIGGER totals_${s.table}_${e.toLowerCase()} AFTER ${e} ON ${s.table} REFERENCING ${referencing[e]}
    FOR EACH STATEMENT EXECUTE FUNCTION platform_totals_${s.table}();`,
  )
  .join('\n')}`
}

export const TOTALS_POSTGRES = TABLE('BIGINT') + SOURCES.map(postgresTrigger).join('\n')
