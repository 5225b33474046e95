import { describe, expect, it } from 'vitest'
import { farmCodeFlagKey, type FarmingLinkRequest, fundingSourceOf, NetworkError, toId } from '../../../core/index.ts'
import { farmingLinkBody } from '../../../core/use-cases/create-farming-link.ts'
import { checkFarmCode } from '../../../core/use-cases/check-farm-code.ts'
import { createFarmingLink } from '../../../core/use-cases/create-farming-link.ts'
import { useCasesOver } from '../fakes/use-cases.ts'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { answer, ok } from '../fakes/fake-http-transport.ts'
import { MemoryKeyValueStore } from '../fakes/memory-stores.ts'
import { aFarmingLink, aPlan } from '../fakes/records.ts'
import { failure, succeed } from '../fakes/run.ts'

const request = (o: Partial<FarmingLinkRequest> = {}): FarmingLinkRequest => ({
  amount: 25,
  days: 30,
  activations: 3,
  source: 'referral',
  multiUse: true,
  forMe: false,
  ...o,
})

describe('farming links', () => {
  it('builds the §7 body from what the user chose', async () => {
    expect(await succeed(farmingLinkBody(request({ source: 'task', forMe: true })))).toEqual({
      amount: 25,
      days: 30,
      count_activations: 3,
      from_ref_balance: false,
      from_task_balance: true,
      is_multilink: true,
      is_for_me: true,
    })
  })

  it.each([
    ['a zero amount', request({ amount: 0 }), 'amount'],
    ['a negative amount', request({ amount: -1 }), 'amount'],
    ['no activations', request({ activations: 0 }), 'count_activations'],
    ['a fractional number of activations', request({ activations: 1.5 }), 'count_activations'],
    ['a single-use link with several activations', request({ multiUse: false, activations: 2 }), 'count_activations'],
  ])('refuses %s', async (_, r, field) => {
    expect(await failure(farmingLinkBody(r))).toMatchObject({ _tag: 'InvalidInput', field })
  })

  it('creates a link with the §7 body, and nothing when the input is refused', async () => {
    const api = new FakeAxiomApi()

    const link = await succeed(createFarmingLink({ api })(request({ multiUse: false, activations: 1 }), { idempotencyKey: 'k1' }))
    await failure(createFarmingLink({ api })(request({ amount: 0 })))

    expect(api.callsTo('createFarmingLink')).toEqual([
      {
        method: 'createFarmingLink',
        input: {
          amount: 25,
          days: 30,
          count_activations: 1,
          from_ref_balance: true,
          from_task_balance: false,
          is_multilink: false,
          is_for_me: false,
        },
        options: { idempotencyKey: 'k1' },
      },
    ])
    expect(api.links).toEqual([link])
  })

  it('pays a link from the main balance with neither flag set, and quotes from that balance', async () => {
    const api = new FakeAxiomApi()

    await succeed(createFarmingLink({ api })(request({ source: 'main' })))
    await succeed(useCasesOver({ api }).loadFarmingPlans('main'))
    await succeed(useCasesOver({ api }).quoteFarming(10, 30, 'main'))
    await succeed(useCasesOver({ api }).quoteFarming(10, 30, 'referral'))

    expect(api.callsTo('createFarmingLink')[0]!.input).toMatchObject({ from_ref_balance: false, from_task_balance: false })
    expect(api.callsTo('farmingPlans')[0]!.input).toEqual({ from_ref_balance: false, from_task_balance: false })
    expect(api.callsTo('calculateFarming').map((c) => c.input)).toEqual([
      { amount: 10, freeze_days: 30, from_ref_balance: false, from_task_balance: false },
      { amount: 10, freeze_days: 30, from_ref_balance: true, from_task_balance: false },
    ])
  })

  it('names the source of a listed link by its flags', () => {
    expect(fundingSourceOf(aFarmingLink({ from_ref_balance: false, from_task_balance: false }))).toBe('main')
    expect(fundingSourceOf(aFarmingLink({ from_ref_balance: true, from_task_balance: false }))).toBe('referral')
    expect(fundingSourceOf(aFarmingLink({ from_ref_balance: false, from_task_balance: true }))).toBe('task')
  })

  it('loads plans for the chosen balance', async () => {
    const api = new FakeAxiomApi()
    api.plans = [aPlan(30)]

    await succeed(useCasesOver({ api }).loadFarmingPlans('task'))

    expect(api.callsTo('farmingPlans')[0]!.input).toEqual({ from_ref_balance: false, from_task_balance: true })
  })

  it('lists and cancels links', async () => {
    const api = new FakeAxiomApi()
    api.links = [aFarmingLink({ id: 1 }), aFarmingLink({ id: 2 })]

    await succeed(useCasesOver({ api }).cancelFarmingLink(toId(2)))

    expect((await succeed(useCasesOver({ api }).loadFarmingLinks())).map((l) => [l.id, l.status])).toEqual([
      ['1', undefined],
      ['2', 'revoked'],
    ])
  })
})

describe('checkFarmCode', () => {
  const setup = () => {
    const api = new FakeAxiomApi()
    api.activations.set('CODE1234', { status: 'ACTIVE', message: 'Welcome', mint_details: { tariff_days: 30, amount_token: 10, amount_ton: 0.1 } })
    const storage = new MemoryKeyValueStore()
    return { api, storage, check: checkFarmCode({ api, storage }) }
  }

  it('checks a code once: the second time answers null without a request', async () => {
    const s = setup()

    expect(await succeed(s.check('CODE1234'))).toMatchObject({ status: 'ACTIVE', message: 'Welcome' })
    expect(await succeed(s.check('CODE1234'))).toBeNull()
    expect(s.api.callsTo('farmingActivationStatus')).toEqual([
      { method: 'farmingActivationStatus', input: { activation_code: 'CODE1234' } },
    ])
    expect(s.storage.get(farmCodeFlagKey('CODE1234'))).not.toBeNull()
  })

  it('keeps codes apart', async () => {
    const s = setup()
    s.api.activations.set('OTHER999', { status: 'REVOKED' })

    await succeed(s.check('CODE1234'))

    expect(await succeed(s.check('OTHER999'))).toMatchObject({ status: 'REVOKED' })
  })

  it('does not mark the code when the call failed, so it is checked again', async () => {
    const s = setup()
    s.api.failWith('farmingActivationStatus', new NetworkError({}))

    expect(await failure(s.check('CODE1234'))).toMatchObject({ _tag: 'NetworkError' })
    expect(s.storage.get(farmCodeFlagKey('CODE1234'))).toBeNull()

    s.api.recover('farmingActivationStatus')
    expect(await succeed(s.check('CODE1234'))).toMatchObject({ status: 'ACTIVE' })
  })

  it('does not mark the code when the server failed and the read fell back to null', async () => {
    const { api, http } = httpApiHarness()
    const storage = new MemoryKeyValueStore()
    http.on('GET /farming/activation-status', answer(500, 'down'), ok({ status: 'REACHED' }))

    expect(await succeed(checkFarmCode({ api, storage })('CODE1234'))).toBeNull()
    expect(storage.get(farmCodeFlagKey('CODE1234'))).toBeNull()
    expect(await succeed(checkFarmCode({ api, storage })('CODE1234'))).toMatchObject({ status: 'REACHED' })
  })
})
