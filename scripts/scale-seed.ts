import { openDb } from '../server/db/open-db.ts'

/**
 * A platform of `users` users seeded straight into a SQLite file, in the proportions of the L size
 * (1 M users: 3 M bonds of which 0.9 M active, 1 M stakes, 20 M operations), in chunks of one
 * transaction each. User 1 invited min(users - 1, 10 000) of the others. Every running position
 * ends in the future (`now` + its term): none is due until `makeDue` says so. As the server grows
 * it, not as a tuned copy: no statistics (nothing runs ANALYZE; the server's own PRAGMA optimize
 * does what it does), 0.3 stored create answers a user under their clients' Idempotency-Keys (the
 * app sends one with every create) made over the last week, and 0.0015 unpaid bonds a user
 * abandoned over a day ago, which the first pass cancels.
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
/** One stored answer per this many users (0.3 a user), one unpaid bond per UNPAID_EVERY users (0.0015 a user). */
const KEY_EVERY = 10
const KEYS_PER_EVERY = 3
const UNPAID_EVERY = 667
/** How long a stored answer under a client's key is kept (server/db/idempotency-table.ts KEPT_S.header). */
const KEY_KEPT_S = 7 * 86_400
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
  readonly idempotencyKeys: number
  readonly unpaidBonds: number
}

/** The stored answers and unpaid bonds a platform of `users` holds (the seed's proportions). */
const extras = (users: number) => ({
  idempotencyKeys: Math.floor(users / KEY_EVERY) * KEYS_PER_EVERY,
  unpaidBonds: Math.floor(users / UNPAID_EVERY),
})

export const seedScale = (path: string, users: number, now: number): SeedCounts => {
  const db = openDb(path)
  db.pragma('synchronous = OFF')
  db.pragma('foreign_keys = OFF')
  const user = db.prepare(
    `INSERT INTO users (id, telegram_id, name, ref_code, referrer_id, balance_token, turnover, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)`,
  )
  const mint = db.prepare(
    `INSERT INTO mints (id, user_id, status, source, created_at, activated_at, ends_at, last_updated_at, total_amount, daily_reward,
       hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days, paid_nano, user_seq)
     VALUES (?, ?, ?, 'ton', ?, ?, ?, ?, ?, 7000, 0, 1000, 0, ?, ?, ?, 30, ?, ?)`,
  )
  const stake = db.prepare(
    `INSERT INTO stakes (id, user_id, mint_id, status, created_at, activated_at, ends_at, last_updated_at, total_amount, daily_reward,
       hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days, user_seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 9000, 0, 1000, 0, ?, ?, 0, 30, 1)`,
  )
  const op = db.prepare(`INSERT INTO operations (user_id, type, balance, amount, created_at, description) VALUES (?, ?, 'balance_token', ?, ?, ?)`)
  const key = db.prepare(
    `INSERT INTO idempotency (user_id, route, key, fingerprint, status_code, body, created_at, expires_at) VALUES (?, 'mint/create', ?, 'f', 200, '{"mint":{}}', ?, ?)`,
  )
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
          mint.run(mintId, u, status, start, start, start + 30 * DAY, start, total, status === 'completed' ? max : 0n, max, 3_630_000_000n, 3_630_000_000n, k + 1)
        }
        const start = now - ((u * 11) % (29 * DAY))
        stake.run(u, u, stakedBond, u % 4 < 2 ? 'active' : 'completed', start, start, start + 30 * DAY, start, total, 0n, (total * 10_000n * 30n) / 1_000_000n)
        for (let i = 0; i < OPERATIONS_PER_USER; i++) op.run(u, OP_TYPES[i % OP_TYPES.length], 1_000_000_000n + BigInt(i), now - (OPERATIONS_PER_USER - i) * 3_600, `Seeded #${i}`)
        if (u % KEY_EVERY === 0)
          for (let i = 0; i < KEYS_PER_EVERY; i++) {
            const made = now - ((u * 31 + i * 7_919) % KEY_KEPT_S)
            key.run(u, `seed-${u}-${i}`, made, made + KEY_KEPT_S)
          }
        if (u % UNPAID_EVERY === 0) {
          mintId++
          const made = now - DAY - (u % 3_600)
          mint.run(mintId, u, 'pending', made, null, null, made, total, 0n, max, 3_630_000_000n, null, BONDS_PER_USER + 1)
        }
      }
    })()
  }
  db.pragma('foreign_keys = ON')
  db.close()
  return { users, bonds: mintId, activeBonds, stakes: users, operations: users * OPERATIONS_PER_USER, ...extras(users) }
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
           hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days, paid_nano, user_seq)
         SELECT (u - 1) * 3 + k + 1, u, a.status, 'ton', b.start, b.start, b.start + ${30 * DAY}, b.start, a.total, 7000, 0, 1000, 0,
           CASE WHEN a.status = 'completed' THEN a.max ELSE 0 END, a.max, 3630000000, 30, 3630000000, k + 1
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
           hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days, user_seq)
         SELECT u, u, (u - 1) * 3 + 3, CASE WHEN u % 4 < 2 THEN 'active' ELSE 'completed' END, s, s, s + ${30 * DAY}, s, t, 9000, 0, 1000, 0, 0,
           (t * 10000 * 30) / 1000000, 0, 30, 1
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
    const { idempotencyKeys, unpaidBonds } = extras(users)
    await engine.run(
      `INSERT INTO idempotency (user_id, route, key, fingerprint, status_code, body, created_at, expires_at)
       SELECT u, 'mint/create', 'seed-' || u || '-' || i, 'f', 200, '{"mint":{}}', m, m + ${KEY_KEPT_S}
       FROM generate_series(${KEY_EVERY}, ${users}, ${KEY_EVERY}) u CROSS JOIN generate_series(0, ${KEYS_PER_EVERY - 1}) i
       CROSS JOIN LATERAL (SELECT ${now} - ((CAST(u AS BIGINT) * 31 + i * 7919) % ${KEY_KEPT_S}) AS m) x`,
    )
    await engine.run(
      `INSERT INTO mints (id, user_id, status, source, created_at, last_updated_at, total_amount, daily_reward, hold_bonus, collective_bonus,
         investment_bonus, earned_reward, max_reward, amount_ton, tariff_days, user_seq)
       SELECT ${users * BONDS_PER_USER} + n, n * ${UNPAID_EVERY}, 'pending', 'ton', ${now - DAY} - ((n * ${UNPAID_EVERY}) % 3600),
         ${now - DAY} - ((n * ${UNPAID_EVERY}) % 3600), 100000000000, 7000, 0, 1000, 0, 0, 2400000000, 3630000000, 30, ${BONDS_PER_USER + 1}
       FROM generate_series(1, ${unpaidBonds}) n`,
    )
    for (const t of ['users', 'mints', 'stakes', 'operations'])
      await engine.run(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT MAX(id) FROM ${t}))`)
    // No VACUUM and no ANALYZE: autovacuum as it comes, as on a server that grew the data itself.
    const active = await engine.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM mints WHERE status = 'active'`)
    return { users, bonds: users * BONDS_PER_USER + unpaidBonds, activeBonds: Number(active!.n), stakes: users, operations: users * OPERATIONS_PER_USER, idempotencyKeys, unpaidBonds }
  } finally {
    await engine.close()
  }
}
