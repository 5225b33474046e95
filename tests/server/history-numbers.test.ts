import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS, postgresStep } from '../../server/db/migrations.ts'
import { paidBond, startTestServer, TEST_ENGINE, testDatabase, type Session, type TestServer } from './support.ts'

/**
 * A bond's and a stake's own number (the user's first is 1) is stored when it is created
 * (mints.user_seq, stakes.user_seq), and the operations history reads it for its page's rows: the
 * numbers stay right on every page, whatever other users' ids. Rows of before the step are numbered
 * by the migration as the history numbered them (by id, per user). On SQLite and PostgreSQL.
 */
type Row = { id: number; type: string; description_params: Record<string, string | number> | null }

const page = async (who: Session, query: Record<string, string | number>): Promise<Row[]> => {
  const res = await who.call('GET', '/operations/history', { query })
  expect(res.status).toBe(200)
  return res.body.items as Row[]
}

describe('own numbers of bonds and stakes, stored at their creation', () => {
  let t: TestServer
  let me: Session
  const mine: number[] = []
  beforeAll(async () => {
    t = await startTestServer()
    me = await t.login(9201)
    const other = await t.login(9202)
    for (let i = 0; i < 3; i++) {
      // Another user's bond before each of mine: ids and numbers part.
      await paidBond(t, other, String(7 + i))
      mine.push(await paidBond(t, me, String(2 + i)))
    }
    // Ten newer rows push the bonds' rows to page 2.
    for (let i = 0; i < 10; i++) await t.server.admin.credit(9201, '1', 'balance_token')
  })
  afterAll(() => t.close())

  it('bond #3 is #3 on page 2, and #1 and #2 with it', async () => {
    const rows = await page(me, { page: 2, size: 10 })
    const bonds = rows.filter((r) => r.type === 'bond_paid').map((r) => [Number(r.description_params!.bond), r.description_params!.bond_number])
    expect(bonds).toEqual([
      [mine[2], 3],
      [mine[1], 2],
      [mine[0], 1],
    ])
    // The ids are not the numbers: the other user's bonds sit between.
    expect(mine).not.toEqual([1, 2, 3])
  })

  it('a stake is numbered among the stakes, its bond among the bonds, on any page', async () => {
    const res = await me.call('POST', '/staking/create', { body: { mint_id: mine[1] } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [stake] = (await page(me, { page: 1, size: 1 })).filter((r) => r.type === 'stake')
    expect(stake!.description_params).toMatchObject({ bond: String(mine[1]), bond_number: 2, stake: String(res.body.id), stake_number: 1 })
    const stored = await t.server.ctx.db.all<{ user_seq: bigint }>('SELECT user_seq FROM mints WHERE user_id = (SELECT user_id FROM mints WHERE id = ?) ORDER BY id', mine[0])
    expect(stored.map((r) => Number(r.user_seq))).toEqual([1, 2, 3])
  })
})

const dir = mkdtempSync(join(tmpdir(), 'axiom-numbers-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A database at the schema before the numbers' step, on the test engine: its SQL runs, then the server's migrations finish it. */
const databaseBefore = async (rows: string): Promise<string> => {
  const step = MIGRATIONS.findIndex((m) => typeof m === 'string' && m.includes('user_seq'))
  expect(step).toBeGreaterThan(17)
  if (TEST_ENGINE === 'sqlite') {
    const file = join(dir, 'axiom.db')
    const db = new Database(file)
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)')
    for (let v = 0; v < step; v++) {
      const m = MIGRATIONS[v]!
      db.exec(typeof m === 'string' ? m : m.sqlite)
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(v + 1)
    }
    db.exec(rows)
    db.close()
    return file
  }
  const url = await testDatabase(':memory:')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('CREATE TABLE schema_version (version BIGINT NOT NULL)')
    for (let v = 0; v < step; v++) {
      await client.query(postgresStep(MIGRATIONS[v]!))
      await client.query('INSERT INTO schema_version (version) VALUES ($1)', [v + 1])
    }
    await client.query(rows)
  } finally {
    await client.end()
  }
  return url
}

const TERMS = `0, 1000000000, 1, 0, 0, 0, 1, 1, 30`
const BOND = `'active', 'ton', ${TERMS}`
const STAKE = `'active', ${TERMS}`
const BOND_COLUMNS = 'id, user_id, status, source, created_at, total_amount, daily_reward, hold_bonus, collective_bonus, investment_bonus, max_reward, amount_ton, tariff_days'
const STAKE_COLUMNS = 'id, user_id, mint_id, status, created_at, total_amount, daily_reward, hold_bonus, collective_bonus, investment_bonus, max_reward, amount_ton, tariff_days'

describe(`the numbers' migration on the rows already there (${TEST_ENGINE})`, () => {
  let t: TestServer
  beforeAll(async () => {
    // Two users' bonds interleaved (user 1: bonds 10, 12, 13; user 2: 11, 14), a stake each of two of user 1's, and their history rows.
    const db = await databaseBefore(`
      INSERT INTO users (id, telegram_id, name, ref_code, created_at) VALUES (1, 9301, 'a', 'r1', 0), (2, 9302, 'b', 'r2', 0);
      INSERT INTO mints (${BOND_COLUMNS}) VALUES (10, 1, ${BOND}), (11, 2, ${BOND}), (12, 1, ${BOND}), (13, 1, ${BOND}), (14, 2, ${BOND});
      INSERT INTO stakes (${STAKE_COLUMNS}) VALUES (20, 1, 13, ${STAKE}), (21, 2, 14, ${STAKE}), (22, 1, 12, ${STAKE});
      INSERT INTO operations (user_id, type, balance, amount, created_at, description) VALUES
        (1, 'welcome', 'balance_token', 100000000000, 0, 'Welcome balance'),
        (1, 'bond_cancel', 'balance_token', 900000000, 0, 'Bond #12 cancelled, 10% penalty kept'),
        (1, 'stake_reward', 'balance_token', 1000000, 0, 'Stake #22 reward');
    `)
    t = await startTestServer({ dbPath: db })
  })
  afterAll(() => t.close())

  it('numbers each user’s bonds and stakes by id, as the history numbered them', async () => {
    const seq = async (table: string) =>
      (await t.server.ctx.db.all<{ id: bigint; user_seq: bigint }>(`SELECT id, user_seq FROM ${table} ORDER BY id`)).map((r) => [Number(r.id), Number(r.user_seq)])
    expect(await seq('mints')).toEqual([
      [10, 1],
      [11, 1],
      [12, 2],
      [13, 3],
      [14, 2],
    ])
    expect(await seq('stakes')).toEqual([
      [20, 1],
      [21, 1],
      [22, 2],
    ])
  })

  it('keeps the old rows readable: in tokens, with the numbers; a new bond is the next number', async () => {
    const me = await t.login(9301)
    const res = await me.call('GET', '/operations/history', { query: { size: 10 } })
    expect(res.status).toBe(200)
    const rows = res.body.items as Array<Row & { amount: string; unit: string; balance: string }>
    expect(rows.map((r) => [r.type, r.amount, r.unit, r.balance, r.description_params])).toEqual([
      ['stake_reward', '0.001', 'AXIOM', 'balance_token', { stake: '22', stake_number: 2 }],
      ['bond_cancel', '0.9', 'AXIOM', 'balance_token', { bond: '12', bond_number: 2 }],
      ['welcome', '100', 'AXIOM', 'balance_token', {}],
    ])
    const id = await paidBond(t, me, '1')
    expect((await t.server.ctx.db.one<{ user_seq: bigint }>('SELECT user_seq FROM mints WHERE id = ?', id))!.user_seq).toBe(4n)
    const [bought] = (await me.call('GET', '/operations/history', { query: { size: 1 } })).body.items as Row[]
    expect(bought!.description_params).toMatchObject({ bond: String(id), bond_number: 4 })
  })
})
