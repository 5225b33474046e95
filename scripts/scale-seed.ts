import { openDb } from '../server/db/open-db.ts'

/**
 * A platform of `users` users seeded straight into a SQLite file, in the proportions of the L size
 * of issue 26 (1 M users: 3 M bonds of which 0.9 M active, 1 M stakes, 20 M operations), in chunks
 * of one transaction each. User 1 invited min(users - 1, 10 000) of the others. Every running
 * position ends in the future (`now` + its term): none is due until `makeDue` says so.
 */
export interface ScaleSize {
  readonly name: string
  readonly users: number
}
export const SIZES: Readonly<Record<'S' | 'M' | 'L', ScaleSize>> = {
  S: { name: 'S', users: 10_000 },
  M: { name: 'M', users: 100_000 },
  L: { name: 'L', users: 1_000_000 },
}

const BONDS_PER_USER = 3
const OPERATIONS_PER_USER = 20
const CHUNK = 20_000
const DAY = 86_400
const TELEGRAM_BASE = 5_000_000_000

export const telegramIdOf = (userId: number): number => TELEGRAM_BASE + userId

export interface SeedCounts {
  readonly users: number
  readonly bonds: number
  readonly activeBonds: number
  readonly stakes: number
  readonly operations: number
}

export const seedScale = (path: string, users: number, now: number): SeedCounts => {
  const db = openDb(path)
  db.pragma('synchronous = OFF')
  db.pragma('foreign_keys = OFF')
  const user = db.prepare(
    `INSERT INTO users (id, telegram_id, name, ref_code, referrer_id, balance_token, turnover, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)`,
  )
  const mint = db.prepare(
    `INSERT INTO mints (id, user_id, status, source, created_at, activated_at, ends_at, last_updated_at, total_amount, daily_reward,
       hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days, paid_nano)
     VALUES (?, ?, ?, 'ton', ?, ?, ?, ?, ?, 7000, 0, 1000, 0, ?, ?, ?, 30, ?)`,
  )
  const stake = db.prepare(
    `INSERT INTO stakes (id, user_id, mint_id, status, created_at, activated_at, ends_at, last_updated_at, total_amount, daily_reward,
       hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 9000, 0, 1000, 0, ?, ?, 0, 30)`,
  )
  const op = db.prepare(`INSERT INTO operations (user_id, type, balance, amount, created_at, description) VALUES (?, ?, 'balance_token', ?, ?, ?)`)
  const OP_TYPES = ['welcome', 'bond_reward', 'stake_reward', 'admin_credit', 'bond_principal'] as const
  let activeBonds = 0
  let mintId = 0
  for (let from = 1; from <= users; from += CHUNK) {
    const to = Math.min(users, from + CHUNK - 1)
    db.transaction(() => {
      for (let u = from; u <= to; u++) {
        const referrer = u > 1 && u <= 10_001 ? 1 : u > 10_001 ? 2 + (u % 1000) : null
        user.run(u, telegramIdOf(u), `User ${u}`, `r${u.toString(36)}`, referrer, 1_000_000_000_000n, now - 90 * DAY)
        const total = 100_000_000_000n + BigInt(u % 1000) * 1_000_000_000n
        const max = (total * 8_000n * 30n) / 1_000_000n
        let stakedBond = 0
        for (let k = 0; k < BONDS_PER_USER; k++) {
          mintId++
          // The third bond of each user was moved to staking; of the other two, 45 % are running
          // (0.9 of 3 bonds a user), the rest completed.
          const staked = k === 2
          const running = !staked && (u * 2 + k) % 20 < 9
          const status = staked ? 'move_to_staking' : running ? 'active' : 'completed'
          if (status === 'active') activeBonds++
          if (staked) stakedBond = mintId
          const start = running ? now - ((u * 7 + k * 13) % (29 * DAY)) : now - 60 * DAY
          mint.run(mintId, u, status, start, start, start + 30 * DAY, start, total, status === 'completed' ? max : 0n, max, 3_630_000_000n, 3_630_000_000n)
        }
        const start = now - ((u * 11) % (29 * DAY))
        stake.run(u, u, stakedBond, u % 4 < 2 ? 'active' : 'completed', start, start, start + 30 * DAY, start, total, 0n, (total * 10_000n * 30n) / 1_000_000n)
        for (let i = 0; i < OPERATIONS_PER_USER; i++) op.run(u, OP_TYPES[i % OP_TYPES.length], 1_000_000_000n + BigInt(i), now - (OPERATIONS_PER_USER - i) * 3_600, `Seeded #${i}`)
      }
    })()
  }
  db.pragma('foreign_keys = ON')
  db.exec('ANALYZE')
  db.close()
  return { users, bonds: mintId, activeBonds, stakes: users, operations: users * OPERATIONS_PER_USER }
}

/** Makes `n` running bonds due (their term ended a second ago); returns how many it could. */
export const makeDue = (path: string, n: number, now: number): number => {
  const db = openDb(path)
  try {
    return db.prepare(`UPDATE mints SET ends_at = ? WHERE id IN (SELECT id FROM mints WHERE status = 'active' ORDER BY id LIMIT ?)`).run(now - 1, n).changes
  } finally {
    db.close()
  }
}

/**
 * The same platform seeded into PostgreSQL (`url`, migrated by opening it), set-wise with
 * generate_series, one statement per table and 20 000 users; ids and proportions as seedScale's.
 */
export const seedScalePostgres = async (url: string, users: number, now: number): Promise<SeedCounts> => {
  const { openEngine } = await import('../server/db/open-engine.ts')
  const engine = await openEngine(url)
  try {
    for (let from = 1; from <= users; from += CHUNK) {
      const to = Math.min(users, from + CHUNK - 1)
      await engine.run(
        `INSERT INTO users (id, telegram_id, name, ref_code, referrer_id, balance_token, turnover, created_at)
         SELECT u, ${TELEGRAM_BASE} + u, 'User ' || u, 'r' || u,
           CASE WHEN u > 1 AND u <= 10001 THEN 1 WHEN u > 10001 THEN 2 + (u % 1000) END, 1000000000000, 0, ${now - 90 * DAY}
         FROM generate_series(CAST(? AS BIGINT), CAST(? AS BIGINT)) u`,
        from,
        to,
      )
      await engine.run(
        `INSERT INTO mints (id, user_id, status, source, created_at, activated_at, ends_at, last_updated_at, total_amount, daily_reward,
           hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days, paid_nano)
         SELECT (u - 1) * 3 + k + 1, u, a.status, 'ton', b.start, b.start, b.start + ${30 * DAY}, b.start, a.total, 7000, 0, 1000, 0,
           CASE WHEN a.status = 'completed' THEN a.max ELSE 0 END, a.max, 3630000000, 30, 3630000000
         FROM generate_series(CAST(? AS BIGINT), CAST(? AS BIGINT)) u CROSS JOIN generate_series(0, 2) k
         CROSS JOIN LATERAL (SELECT CASE WHEN k = 2 THEN 'move_to_staking' WHEN (u * 2 + k) % 20 < 9 THEN 'active' ELSE 'completed' END AS status,
           CAST(100000000000 AS BIGINT) + (u % 1000) * 1000000000 AS total,
           ((CAST(100000000000 AS BIGINT) + (u % 1000) * 1000000000) * 8000 * 30) / 1000000 AS max) a
         CROSS JOIN LATERAL (SELECT CASE WHEN a.status = 'active' THEN ${now} - ((u * 7 + k * 13) % ${29 * DAY}) ELSE ${now - 60 * DAY} END AS start) b`,
        from,
        to,
      )
      await engine.run(
        `INSERT INTO stakes (id, user_id, mint_id, status, created_at, activated_at, ends_at, last_updated_at, total_amount, daily_reward,
           hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days)
         SELECT u, u, (u - 1) * 3 + 3, CASE WHEN u % 4 < 2 THEN 'active' ELSE 'completed' END, s, s, s + ${30 * DAY}, s, t, 9000, 0, 1000, 0, 0,
           (t * 10000 * 30) / 1000000, 0, 30
         FROM generate_series(CAST(? AS BIGINT), CAST(? AS BIGINT)) u
         CROSS JOIN LATERAL (SELECT ${now} - ((u * 11) % ${29 * DAY}) AS s, CAST(100000000000 AS BIGINT) + (u % 1000) * 1000000000 AS t) x`,
        from,
        to,
      )
      await engine.run(
        `INSERT INTO operations (user_id, type, balance, amount, created_at, description)
         SELECT u, (ARRAY['welcome', 'bond_reward', 'stake_reward', 'admin_credit', 'bond_principal'])[i % 5 + 1], 'balance_token',
           1000000000 + i, ${now} - (${OPERATIONS_PER_USER} - i) * 3600, 'Seeded #' || i
         FROM generate_series(CAST(? AS BIGINT), CAST(? AS BIGINT)) u CROSS JOIN generate_series(0, ${OPERATIONS_PER_USER - 1}) i
         ORDER BY u, i`,
        from,
        to,
      )
    }
    for (const t of ['users', 'mints', 'stakes', 'operations'])
      await engine.run(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT MAX(id) FROM ${t}))`)
    // VACUUM as well: fresh rows make index-only scans fetch the heap (no visibility map yet) and
    // first reads write hint bits, which a table in service has long had.
    await engine.run('VACUUM (ANALYZE)')
    const active = await engine.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM mints WHERE status = 'active'`)
    return { users, bonds: users * BONDS_PER_USER, activeBonds: Number(active!.n), stakes: users, operations: users * OPERATIONS_PER_USER }
  } finally {
    await engine.close()
  }
}
