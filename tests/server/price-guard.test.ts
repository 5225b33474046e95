import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto'
import { WalletContractV5R1 } from '@ton/ton'
import { afterAll, describe, expect, it } from 'vitest'
import { errorForStatus } from '../../core/api/http-axiom-api.ts'
import { isAnsweredInPlace } from '../../core/error-policy.ts'
import { entryOptionsFromEnv, ProductionRefused } from '../../server/main.ts'
import { nano, serversClosedAfterAll, SOME_ADDRESS, testDatabase, type Reply, type Session, type TestServer } from './support.ts'
import { productionEnv } from '../support/production-env.ts'

/**
 * The price production quotes at is what an operator records (`npm run admin -- price set <ton>`).
 * A typo there (25 for 0.025) pays a thousand times too much, and a price nobody updates any more
 * buys and sells at a stale rate: the command refuses a move of more than 20 % without --force, and
 * the backend refuses to quote or create a bond or a sale while the last price is older than
 * AXIOM_PRICE_MAX_AGE. The command runs as the operator runs it (a child process on the database
 * file); the backend is asked over HTTP.
 */

const dir = mkdtempSync(join(tmpdir(), 'axiom-price-guard-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const start = serversClosedAfterAll()

const STALE_MSG = 'The price is out of date: quotes are paused until it is updated'

/** `npm run admin -- <args>` as an operator types it, against `db`. */
const admin = (db: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], { env: { ...process.env, AXIOM_DB: db }, encoding: 'utf8' })
  return { status: r.status, out: r.stdout.trim(), err: r.stderr.trim() }
}

/** The latest row of the price table, as nano text. */
const lastTick = async (t: TestServer) => {
  const rows = (await t.server.ctx.engine.all('SELECT at, price_nano FROM price_ticks ORDER BY at DESC LIMIT 1')) as Array<Record<string, unknown>>
  return String(rows[0]?.price_nano)
}

const now = () => Math.floor(Date.now() / 1000)

describe('admin price set refuses a move of more than 20 % without --force', () => {
  it('takes the first price; refuses a 1000× typo and a 21 % move with both prices and the move; takes 19 % and a forced move', async () => {
    const db = await testDatabase(join(dir, 'guard.db'))

    const first = admin(db, 'price', 'set', '0.025')
    expect(first.status).toBe(0)
    expect(first.out).toMatch(/^price 0\.025 GRAM per AXIOM from .*\(the first price recorded\)$/)

    // The typo: 25 for 0.025. Refused, one line naming both prices and the move, exit 1, nothing recorded.
    const typo = admin(db, 'price', 'set', '25')
    expect(typo.status).toBe(1)
    expect(typo.out).toBe('')
    expect(typo.err).toBe(
      'refused: 25 GRAM per AXIOM is +99900% from the last recorded price 0.025 (more than 20%); if it is right, run again with --force',
    )
    // 21 % up, and 21 % down.
    const up = admin(db, 'price', 'set', '0.03025')
    expect(up.status).toBe(1)
    expect(up.err).toBe('refused: 0.03025 GRAM per AXIOM is +21% from the last recorded price 0.025 (more than 20%); if it is right, run again with --force')
    const down = admin(db, 'price', 'set', '0.01975')
    expect(down.status).toBe(1)
    expect(down.err).toMatch(/^refused: 0\.01975 GRAM per AXIOM is -21% from the last recorded price 0\.025 \(more than 20%\)/)

    const t = await start({ dbPath: db, priceSource: 'recorded', priceTickMs: 60_000 })
    expect(await lastTick(t)).toBe('25000000')

    // 19 % is an ordinary move.
    const ok = admin(db, 'price', 'set', '0.02975')
    expect(ok.status).toBe(0)
    expect(ok.out).toMatch(/^price 0\.02975 GRAM per AXIOM from .* \(\+19% from 0\.025\)$/)
    expect(await lastTick(t)).toBe('29750000')

    // A real jump, confirmed: recorded, and the output says it was forced.
    const forced = admin(db, 'price', 'set', '0.05', '--force')
    expect(forced.status).toBe(0)
    expect(forced.out).toMatch(/^price 0\.05 GRAM per AXIOM from .*: FORCED, \+68\.06% from 0\.02975 \(more than 20%\)$/)
    expect(await lastTick(t)).toBe('50000000')
    // The backend quotes what was recorded.
    t.clock.now = now() + 1
    await t.server.tick()
    expect((await (await t.login(7001)).call('GET', '/price/current-price')).body.price).toBe('0.05')
  }, 90_000)
})

/** A user with 100 sellable tokens on their main balance (credited by the operator's command). */
const seller = async (t: TestServer, db: string, telegramId: number): Promise<Session> => {
  const who = await t.login(telegramId)
  expect(admin(db, 'credit', String(telegramId), '100').status).toBe(0)
  return who
}

const QUOTES = [
  { name: 'GET /mint/calculate', ask: (s: Session) => s.call('GET', '/mint/calculate', { query: { amount: 10, freeze_days: 30 } }) },
  { name: 'POST /mint/create', ask: (s: Session) => s.call('POST', '/mint/create', { body: { amount: 10, days: 30 } }) },
  { name: 'GET /withdraw/calculate', ask: (s: Session) => s.call('GET', '/withdraw/calculate', { query: { token_amount: 10 } }) },
  {
    name: 'POST /withdraw/create',
    ask: (s: Session) => s.call('POST', '/withdraw/create', { body: { token_amount: 10, from_ref_balance: false, address: SOME_ADDRESS } }),
  },
] as const

const expectPaused = (name: string, r: Reply) => {
  expect({ name, status: r.status, body: r.body }).toEqual({ name, status: 409, body: { msg: STALE_MSG } })
}

describe('a recorded price older than AXIOM_PRICE_MAX_AGE pauses the bond and sale quotes', () => {
  it('refuses calculate and create for bonds and sales, creates and reserves nothing, and quotes again once a fresh price is recorded', async () => {
    const db = await testDatabase(join(dir, 'stale.db'))
    expect(admin(db, 'price', 'set', '0.025').status).toBe(0)
    const t = await start({ dbPath: db, priceSource: 'recorded', priceMaxAgeS: 3_600, priceTickMs: 60_000 })
    // The price was recorded two hours ago, and nothing since.
    await t.server.ctx.engine.run('UPDATE price_ticks SET at = at - 7200')
    t.clock.now = now()
    const who = await seller(t, db, 7101)
    const me = async () => (await who.call('GET', '/user/me')).body as Record<string, unknown>
    const before = await me()
    const rowsBefore = await t.server.admin.snapshot()

    for (const q of QUOTES) expectPaused(q.name, await q.ask(who))
    // The same create again with an Idempotency-Key: the refusal is not kept as its answer (below).
    const keyed = await who.call('POST', '/mint/create', { body: { amount: 10, days: 30 }, headers: { 'Idempotency-Key': 'stale-bond-1' } })
    expectPaused('POST /mint/create (keyed)', keyed)

    // Nothing was created or reserved: the balances, the bonds, the sales and every row are as before.
    expect(await me()).toEqual(before)
    expect((await who.call('GET', '/mint/')).body.items).toEqual([])
    expect((await who.call('GET', '/withdraw/history')).body.items).toEqual([])
    expect(await t.server.admin.snapshot()).toBe(rowsBefore)

    // The app reads the refusal as a quote it cannot make, shown where the quote would be (not a
    // server failure toasted on each keystroke, not the maintenance page).
    const quoteRefusal = await QUOTES[0].ask(who)
    const asTheAppReadsIt = errorForStatus({ status: quoteRefusal.status, body: quoteRefusal.body })
    expect(asTheAppReadsIt).toMatchObject({ _tag: 'RequestRejected', msg: STALE_MSG })
    expect(isAnsweredInPlace('quoteBond', asTheAppReadsIt)).toBe(true)
    expect(isAnsweredInPlace('quoteSale', asTheAppReadsIt)).toBe(true)

    // The operator records a fresh price (within 20 % of the last): everything quotes again, at it.
    expect(admin(db, 'price', 'set', '0.026').status).toBe(0)
    const recordedAt = now()
    t.clock.now = recordedAt + 1
    expect((await QUOTES[0].ask(who)).body).toMatchObject({ amount_token: '10', amount_ton: '0.26' })
    expect((await QUOTES[2].ask(who)).body).toMatchObject({ token_amount: '10', net_amount: '9.7', amount_ton: '0.2522' })
    const bond = await who.call('POST', '/mint/create', { body: { amount: 10, days: 30 }, headers: { 'Idempotency-Key': 'stale-bond-1' } })
    expect(bond.status).toBe(200)
    expect(bond.body.payment.amount_nano).toBe('260000000')
    const sale = await QUOTES[3].ask(who)
    expect(sale.status).toBe(200)
    expect(sale.body).toMatchObject({ token_amount: '10', amount_ton: '0.2522', status: 'pending' })
    expect(nano((await me()).balance_token as string)).toBe(nano(before.balance_token as string) - nano('10'))

    // Exactly AXIOM_PRICE_MAX_AGE old still quotes; one second more does not.
    // (Signed in anew: an hour later the access token has expired.)
    t.clock.now = (await lastRecordedAt(t)) + 3_600
    expect((await QUOTES[0].ask(await t.login(7101))).status).toBe(200)
    t.clock.now += 1
    const later = await t.login(7101)
    for (const q of QUOTES) expectPaused(q.name, await q.ask(later))
  }, 90_000)

  it('does not apply to the price walk (npm start, the tests): the walk is always fresh', async () => {
    const t = await start({ priceMaxAgeS: 60 })
    t.clock.advance(30 * 86_400)
    const who = await t.login(7201)
    expect((await QUOTES[0].ask(who)).status).toBe(200)
    expect((await QUOTES[2].ask(who)).status).toBe(200)
  })
})

const lastRecordedAt = async (t: TestServer): Promise<number> => {
  const rows = (await t.server.ctx.engine.all('SELECT MAX(at) AS at FROM price_ticks')) as Array<Record<string, unknown>>
  return Number(rows[0]!.at)
}

describe("production's AXIOM_PRICE_MAX_AGE", () => {
  const production = async (): Promise<NodeJS.ProcessEnv> => {
    const words = await mnemonicNew()
    const { publicKey } = await mnemonicToPrivateKey(words)
    return productionEnv({
      words,
      treasury: WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -239 } }).address.toString({ testOnly: false }),
      jwtSecret: randomBytes(32).toString('base64'),
    })
  }

  it('is an hour unless set, takes a number of seconds, and refuses off', async () => {
    const env = await production()
    expect((await entryOptionsFromEnv(env)).priceMaxAgeS).toBe(3_600)
    expect((await entryOptionsFromEnv({ ...env, AXIOM_PRICE_MAX_AGE: '900' })).priceMaxAgeS).toBe(900)
    for (const off of ['off', '0']) {
      const refused = entryOptionsFromEnv({ ...env, AXIOM_PRICE_MAX_AGE: off })
      await expect(refused).rejects.toBeInstanceOf(ProductionRefused)
      await expect(refused).rejects.toThrow(`AXIOM_PRICE_MAX_AGE=${off} lets bonds and sales go on at a price nobody updates`)
    }
    await expect(entryOptionsFromEnv({ ...env, AXIOM_PRICE_MAX_AGE: 'an hour' })).rejects.toThrow(/AXIOM_PRICE_MAX_AGE must be a positive whole number of seconds/)
    // Outside production: no limit unless set.
    expect((await entryOptionsFromEnv({})).priceMaxAgeS).toBeUndefined()
    expect((await entryOptionsFromEnv({ AXIOM_PRICE_MAX_AGE: '120' })).priceMaxAgeS).toBe(120)
    expect((await entryOptionsFromEnv({ AXIOM_PRICE_MAX_AGE: 'off' })).priceMaxAgeS).toBeNull()
  })
})
