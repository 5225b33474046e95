import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keepNewestPending, liveMintToMint, liveRecordNotice, mergeLiveRecord, noticeText, toId } from '../../../core/index.ts'

const NOW = 1_800_000_000
const item = (id: number, status: string, age: number, amount = 100, days = 30) => ({
  id: toId(id),
  status,
  created_at: NOW - age,
  amount_token: amount,
  tariff_days: days,
})

describe('the pending rule (spec §4)', () => {
  it('keeps only the newest pending item created less than 3 minutes ago', () => {
    const items = [item(1, 'active', 1000), item(2, 'pending', 30), item(3, 'pending', 10), item(4, 'pending', 400)]
    expect(keepNewestPending(items, NOW).map((i) => i.id)).toEqual(['1', '3'])
  })

  it('drops a pending item exactly 3 minutes old', () => {
    expect(keepNewestPending([item(1, 'pending', 180)], NOW)).toEqual([])
    expect(keepNewestPending([item(1, 'pending', 179)], NOW)).toHaveLength(1)
  })

  it('law: at most one pending item survives, and no other item is lost', () => {
    const arbItem = fc.record({
      id: fc.integer().map(toId),
      status: fc.constantFrom('pending', 'active', 'completed', 'canceled'),
      created_at: fc.integer({ min: NOW - 1000, max: NOW }),
      amount_token: fc.constant(1),
      tariff_days: fc.constant(1),
    })
    fc.assert(
      fc.property(fc.array(arbItem, { maxLength: 30 }), (items) => {
        const kept = keepNewestPending(items, NOW)
        const pending = kept.filter((i) => i.status === 'pending')
        return (
          pending.length <= 1 &&
          pending.every((p) => NOW - p.created_at < 180) &&
          kept.filter((i) => i.status !== 'pending').length === items.filter((i) => i.status !== 'pending').length
        )
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('live events (spec §4)', () => {
  it('a live record joins the list at the top and drops its pending twin', () => {
    const list = [item(7, 'pending', 5), item(1, 'active', 1000)]
    const merged = mergeLiveRecord(list, item(7, 'active', 5))
    expect(merged.map((i) => [i.id, i.status])).toEqual([
      ['7', 'active'],
      ['1', 'active'],
    ])
  })

  it('matches a pending twin by amount and days when the ids differ', () => {
    const list = [item(-1, 'pending', 5, 250, 14), item(1, 'active', 1000)]
    expect(mergeLiveRecord(list, item(9, 'active', 0, 250, 14)).map((i) => i.id)).toEqual(['9', '1'])
  })

  it('never lets a late pending copy replace a record already past pending', () => {
    const list = [item(3, 'active', 5)]
    expect(mergeLiveRecord(list, item(3, 'pending', 5)).map((i) => i.status)).toEqual(['active'])
  })

  it('an update of a record already listed never takes an unrelated pending item with it', () => {
    const list = [item(9, 'pending', 5, 100, 30), item(5, 'active', 1000, 100, 30)]
    expect(mergeLiveRecord(list, item(5, 'completed', 1000, 100, 30)).map((i) => [i.id, i.status])).toEqual([
      ['5', 'completed'],
      ['9', 'pending'],
    ])
  })

  it('replaces an item with the same id rather than duplicating it', () => {
    const list = [item(1, 'active', 10)]
    expect(mergeLiveRecord(list, item(1, 'completed', 10))).toHaveLength(1)
  })

  it('maps mint_id to id and copies amount_token to expected_token', () => {
    const mint = liveMintToMint({
      mint_id: toId(42),
      status: 'active',
      created_at: NOW,
      total_amount: 10,
      daily_reward: 1,
      hold_bonus: 0,
      collective_bonus: 0,
      investment_bonus: 0,
      earned_reward: 0,
      max_reward: 3,
      amount_token: 10,
      amount_ton: 2,
      tariff_days: 30,
    })
    expect(mint.id).toBe('42')
    expect(mint.expected_token).toBe(10)
    expect('mint_id' in mint).toBe(false)
  })

  it('announces active records only, with the farming and stake wording', () => {
    const words = (n: ReturnType<typeof liveRecordNotice>) => (n ? noticeText(n) : null)
    expect(words(liveRecordNotice('mint', 'active', false))).toBe('New Bond created')
    expect(words(liveRecordNotice('mint', 'active', true))).toBe('New Bond created via Farming')
    expect(words(liveRecordNotice('stake', 'active', false))).toBe('New Stake created')
    expect(liveRecordNotice('mint', 'pending', false)).toBeNull()
  })
})
