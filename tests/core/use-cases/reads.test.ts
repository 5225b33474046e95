import { describe, expect, it } from 'vitest'
import { CANDLES_PER_CHART, pageCount } from '../../../core/index.ts'
import { useCasesOver } from '../fakes/use-cases.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { FixedClock } from '../fakes/fixed-clock.ts'
import { anOperation, aUser } from '../fakes/records.ts'
import { succeed } from '../fakes/run.ts'

describe('plain reads', () => {
  it('loads the user', async () => {
    const api = new FakeAxiomApi()
    api.user = aUser({ balance_token: 77 })

    expect(await succeed(useCasesOver({ api }).loadUser())).toMatchObject({ balance_token: 77 })
  })

  it('pages the operations history 10 at a time', async () => {
    const api = new FakeAxiomApi()
    api.operations = Array.from({ length: 12 }, (_, i) => anOperation({ id: i + 1 }))

    const page2 = await succeed(useCasesOver({ api }).loadOperationsHistory(2))

    expect(api.callsTo('operationsHistory')[0]!.input).toEqual({ page: 2, size: 10 })
    expect(page2.items.map((o) => o.id)).toEqual(['11', '12'])
    expect(pageCount(page2.total)).toBe(2)
    expect(pageCount(0)).toBe(1)
  })

  it('asks for enough candles to fill a chart, ending now', async () => {
    const api = new FakeAxiomApi()
    const clock = new FixedClock(1_700_000_000_999)

    await succeed(useCasesOver({ api, clock }).loadCandles('1h'))

    expect(api.callsTo('candles')[0]!.input).toEqual({
      interval: '1h',
      from_timestamp: 1_700_000_000 - 3600 * CANDLES_PER_CHART,
      to_timestamp: 1_700_000_000,
    })
  })

  it('loads the price and the stats', async () => {
    const api = new FakeAxiomApi()

    expect(await succeed(useCasesOver({ api }).loadPrice())).toEqual(api.price)
    expect(await succeed(useCasesOver({ api }).loadFinancialStats())).toEqual(api.stats)
  })
})
