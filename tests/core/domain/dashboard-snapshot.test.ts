import { describe, expect, it } from 'vitest'
import {
  amountText,
  type DashboardFigures,
  readSnapshot,
  SNAPSHOT_MAX_AGE_MS,
  SNAPSHOT_VERSION,
  snapshotEarnedToday,
  snapshotText,
} from '../../../core/domain/dashboard-snapshot.ts'
import { SNAPSHOT_MAX_BONDS, snapshotAge } from '../../../core/domain/kept-dashboard.ts'
import { dashboardSnapshots, type SnapshotStorage } from '../../../core/use-cases/dashboard-snapshot.ts'
import { Mint, Price } from '../../../core/index.ts'
import { Schema } from 'effect'
import { FakePlatform, launchData } from '../fakes/fake-platform.ts'
import { FixedClock } from '../fakes/fixed-clock.ts'
import { aMint, aStake } from '../fakes/records.ts'

const NOW = 1_764_000_000_000
const USER = '4242'

/** A mint and a price decoded from the API's own text, as the app's view models hold them. */
const wireMint = {
  id: 17,
  number: 3,
  status: 'active',
  created_at: 1_763_990_000,
  last_updated_at: null,
  total_amount: '1234.123456789',
  daily_reward: '1.25',
  hold_bonus: '0.1',
  collective_bonus: '0',
  investment_bonus: '0.05',
  earned_reward: '0.000000001',
  max_reward: '462.79629629',
  amount_token: '1234.123456789',
  amount_ton: '38.875',
  tariff_days: 30,
}
const wirePrice = { price: '0.0315', price_change_24h: '-1.5', price_change_30d: '12' }
const decodedMint = Schema.decodeUnknownSync(Mint)(wireMint)
const decodedPrice = Schema.decodeUnknownSync(Price)(wirePrice)

const figures = (o: Partial<DashboardFigures> = {}): DashboardFigures => ({
  balances: { balance_token: 120.5, task_balance: 0, referral_balance: 3.000000007, locked_balance: 100 },
  mints: [decodedMint],
  stakes: [],
  price: decodedPrice,
  ...o,
})

/** Every number in a JSON value that sits under one of `keys`, wherever it is. */
const numbersUnder = (value: unknown, keys: ReadonlySet<string>, found: string[] = [], key = ''): string[] => {
  if (typeof value === 'number' && keys.has(key)) found.push(`${key}=${value}`)
  else if (Array.isArray(value)) for (const v of value) numbersUnder(v, keys, found, key)
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) numbersUnder(v, keys, found, k)
  return found
}

const MONEY = new Set([
  'balance_token',
  'task_balance',
  'referral_balance',
  'locked_balance',
  'total_amount',
  'earned_reward',
  'max_reward',
  'amount_token',
  'amount_ton',
  'daily_reward',
  'price',
  'price_change_24h',
  'price_change_30d',
])

describe('amountText', () => {
  it('writes the shortest decimal that reads back to the figure, never with an exponent', () => {
    expect(amountText(0.000000001)).toBe('0.000000001')
    expect(amountText(1.5e-7)).toBe('0.00000015')
    expect(amountText(-2.5e-8)).toBe('-0.000000025')
    expect(amountText(1e21)).toBe('1000000000000000000000')
    expect(amountText(1.25e22)).toBe('12500000000000000000000')
    expect(amountText(1234.123456789)).toBe('1234.123456789')
    expect(amountText(0)).toBe('0')
    for (const n of [0.1 + 0.2, 1e-9, 3.000000007, 999_999.999999999, 7e-10]) expect(Number(amountText(n))).toBe(n)
  })
})

describe('the dashboard snapshot', () => {
  it('keeps money as the API wrote it, in text, and reads it back to the same figures', () => {
    const text = snapshotText(figures(), USER, NOW)
    const stored = JSON.parse(text) as Record<string, unknown>
    expect(numbersUnder(stored, MONEY)).toEqual([])
    expect(stored).toMatchObject({ v: SNAPSHOT_VERSION, user: USER, saved_at: NOW })
    // The API's own text, for every amount the mint and the price came with.
    const mint = (stored.mints as Array<Record<string, unknown>>)[0]!
    for (const k of ['total_amount', 'earned_reward', 'max_reward', 'amount_ton', 'daily_reward'] as const) expect(mint[k]).toBe(wireMint[k])
    expect(stored.price).toEqual(wirePrice)
    expect(stored.balances).toEqual({ balance_token: '120.5', task_balance: '0', referral_balance: '3.000000007', locked_balance: '100' })

    const read = readSnapshot(text, USER, NOW + 5_000)
    expect(read).toEqual({
      kind: 'show',
      snapshot: { userId: USER, savedAtMs: NOW, balances: figures().balances, mainBalance: 120.5, mints: [decodedMint], stakes: [], price: decodedPrice },
    })
  })

  it('keeps the first bonds as listed and only the active stakes', () => {
    const mints = Array.from({ length: SNAPSHOT_MAX_BONDS + 5 }, (_, i) => aMint({ id: i + 1 }))
    const stakes = [aStake({ id: 1 }), aStake({ id: 2, status: 'completed' }), aStake({ id: 3, status: 'pending' })]
    const read = readSnapshot(snapshotText(figures({ mints, stakes }), USER, NOW), USER, NOW)
    if (read.kind !== 'show') throw new Error(`not shown: ${JSON.stringify(read)}`)
    expect(read.snapshot.mints.map((m) => m.id)).toEqual(mints.slice(0, SNAPSHOT_MAX_BONDS).map((m) => m.id))
    expect(read.snapshot.stakes.map((s) => s.id)).toEqual(['1'])
  })

  it('is another user’s: not painted, and removed', () => {
    expect(readSnapshot(snapshotText(figures(), USER, NOW), '777', NOW)).toEqual({ kind: 'discard', reason: 'other-user' })
  })

  it('is painted up to its age limit, not after', () => {
    const text = snapshotText(figures(), USER, NOW)
    expect(readSnapshot(text, USER, NOW + SNAPSHOT_MAX_AGE_MS).kind).toBe('show')
    expect(readSnapshot(text, USER, NOW + SNAPSHOT_MAX_AGE_MS + 1)).toEqual({ kind: 'discard', reason: 'too-old' })
    expect(SNAPSHOT_MAX_AGE_MS).toBe(7 * 24 * 3_600_000)
  })

  it('of another version, or unreadable, is discarded; nothing kept, or no Telegram user, is nothing', () => {
    const stored = JSON.parse(snapshotText(figures(), USER, NOW)) as Record<string, unknown>
    expect(readSnapshot(JSON.stringify({ ...stored, v: SNAPSHOT_VERSION + 1 }), USER, NOW)).toEqual({ kind: 'discard', reason: 'other-version' })
    expect(readSnapshot('{"v":1', USER, NOW)).toEqual({ kind: 'discard', reason: 'unreadable' })
    expect(readSnapshot('null', USER, NOW)).toEqual({ kind: 'discard', reason: 'unreadable' })
    expect(readSnapshot(JSON.stringify({ ...stored, balances: { balance_token: 'lots' } }), USER, NOW)).toEqual({ kind: 'discard', reason: 'unreadable' })
    expect(readSnapshot(null, USER, NOW)).toEqual({ kind: 'none' })
    expect(readSnapshot(snapshotText(figures(), USER, NOW), null, NOW)).toEqual({ kind: 'none' })
  })

  it('shows the main balance as it was: the active stakes’ accrual of that day up to when it was taken', () => {
    const dayStart = 1_763_942_400 // a UTC midnight
    const savedAtMs = (dayStart + 3_600) * 1000
    // 100 tokens at 1 % a day, since long before: 1/24 of a day's 1 token by then.
    const stake = aStake({ id: 5, created_at: dayStart - 10 * 86_400, total_amount: 100, daily_reward: 1, max_reward: 50 })
    expect(snapshotEarnedToday({ savedAtMs, stakes: [stake] })).toBeCloseTo(1 / 24, 9)
    expect(snapshotEarnedToday({ savedAtMs, stakes: [{ ...stake, status: 'completed' }] })).toBe(0)
    // The figure painted: balance_token plus that.
    const read = readSnapshot(snapshotText(figures({ stakes: [stake] }), USER, savedAtMs), USER, savedAtMs + 60_000)
    if (read.kind !== 'show') throw new Error('not shown')
    expect(read.snapshot.mainBalance).toBeCloseTo(120.5 + 1 / 24, 9)
  })

  it('reads its age in seconds under a minute, then minutes, hours and days', () => {
    expect(snapshotAge(NOW, NOW + 999)).toEqual({ unit: 's', n: 0 })
    expect(snapshotAge(NOW, NOW + 59_999)).toEqual({ unit: 's', n: 59 })
    expect(snapshotAge(NOW, NOW + 60_000)).toEqual({ unit: 'min', n: 1 })
    expect(snapshotAge(NOW, NOW + 3_600_000)).toEqual({ unit: 'h', n: 1 })
    expect(snapshotAge(NOW, NOW + 2 * 86_400_000)).toEqual({ unit: 'd', n: 2 })
    // A device clock set back since: never "-3 s".
    expect(snapshotAge(NOW, NOW - 3_000)).toEqual({ unit: 's', n: 0 })
  })
})

/** The device's store as the adapter would be: one text, and what was asked of it. */
class MemorySnapshotStorage implements SnapshotStorage {
  constructor(public text: string | null = null) {}
  readonly calls: string[] = []
  read = () => Promise.resolve(this.text)
  write(text: string) {
    this.calls.push('write')
    this.text = text
  }
  remove() {
    this.calls.push('remove')
    this.text = null
  }
}

describe('dashboardSnapshots', () => {
  const over = (storage: MemorySnapshotStorage, userId: string | null = USER) => {
    const platform = new FakePlatform(launchData({ userId }))
    const clock = new FixedClock(NOW)
    return { snapshots: dashboardSnapshots({ storage, platform, clock }), clock }
  }

  it('saves for this launch’s user and loads it back on the next launch', async () => {
    const storage = new MemorySnapshotStorage()
    const { snapshots, clock } = over(storage)
    snapshots.save(figures())
    expect(JSON.parse(storage.text!)).toMatchObject({ user: USER, saved_at: NOW })
    clock.advance(12_000)
    expect(await snapshots.load()).toMatchObject({ userId: USER, savedAtMs: NOW, mints: [decodedMint] })
    expect(storage.calls).toEqual(['write'])
  })

  it('removes another user’s snapshot from the device, and one too old', async () => {
    const other = new MemorySnapshotStorage(snapshotText(figures(), '999', NOW))
    expect(await over(other).snapshots.load()).toBeNull()
    expect(other.calls).toEqual(['remove'])
    expect(other.text).toBeNull()

    const old = new MemorySnapshotStorage(snapshotText(figures(), USER, NOW - SNAPSHOT_MAX_AGE_MS - 1))
    expect(await over(old).snapshots.load()).toBeNull()
    expect(old.calls).toEqual(['remove'])
  })

  it('without a Telegram user keeps nothing and removes nothing', async () => {
    const storage = new MemorySnapshotStorage(snapshotText(figures(), USER, NOW))
    const { snapshots } = over(storage, null)
    expect(await snapshots.load()).toBeNull()
    snapshots.save(figures())
    expect(storage.calls).toEqual([])
  })
})
