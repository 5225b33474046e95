import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate, MIGRATIONS } from '../../server/db/migrations.ts'

/** The running totals' migration on a SQLite database that already has rows. */
describe('platform totals migration (SQLite)', () => {
  it('starts the totals from the rows already there, and its triggers follow the writes', () => {
    const db = new Database(':memory:')
    db.defaultSafeIntegers(true)
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)')
    const before = MIGRATIONS.findIndex((m) => typeof m !== 'string')
    for (let v = 0; v < before; v++) {
      db.exec(MIGRATIONS[v] as string)
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(v + 1)
    }
    db.exec(`INSERT INTO users (id, telegram_id, name, ref_code, created_at) VALUES (1, 1, 'a', 'r1', 0), (2, 2, 'b', 'r2', 0)`)
    db.exec(`INSERT INTO mints (user_id, status, source, created_at, total_amount, daily_reward, hold_bonus, collective_bonus, investment_bonus, max_reward, amount_ton, tariff_days, paid_nano)
      VALUES (1, 'active', 'ton', 0, 7, 1, 0, 0, 0, 1, 1, 10, 9), (2, 'completed', 'ton', 0, 5, 1, 0, 0, 0, 1, 1, 10, 4)`)
    db.exec(`INSERT INTO operations (user_id, type, balance, amount, created_at, description) VALUES (2, 'bond_reward', 'balance_token', 3, 0, 'r'), (2, 'welcome', 'balance_token', 100, 0, 'w')`)
    migrate(db)
    const kept = db.prepare('SELECT SUM(users) AS users, SUM(locked) AS locked, SUM(active_bonds) AS bonds, SUM(rewards_paid) AS rewards, SUM(ton_raised) AS ton FROM platform_totals').get()
    expect(kept).toEqual({ users: 2n, locked: 7n, bonds: 1n, rewards: 3n, ton: 13n })
    // And from there the triggers follow the writes.
    db.exec(`UPDATE mints SET status = 'completed' WHERE user_id = 1`)
    db.exec(`INSERT INTO users (id, telegram_id, name, ref_code, created_at) VALUES (3, 3, 'c', 'r3', 0)`)
    expect(db.prepare('SELECT SUM(users) AS users, SUM(locked) AS locked, SUM(active_bonds) AS bonds FROM platform_totals').get()).toEqual({ users: 3n, locked: 0n, bonds: 0n })
    db.close()
  })
})
