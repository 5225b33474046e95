import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OperationHistory } from '../../core/domain/entities/market.ts'
import { MintList } from '../../core/domain/entities/mint.ts'
import { TaskList } from '../../core/domain/entities/task.ts'
import { operationText } from '../../server/domain/operation-texts.ts'
import { en as enEntry } from '../../ui/i18n/en.ts'
import { enScreens } from '../../ui/i18n/en-screens.ts'
import { ru as ruEntry } from '../../ui/i18n/ru.ts'
import { ruScreens } from '../../ui/i18n/ru-screens.ts'
import { decode, startTestServer, type TestServer } from './support.ts'

/** The whole English catalogue: the entry's texts and the other screens'. */
const en = { ...enEntry, ...enScreens }
const ru = { ...ruEntry, ...ruScreens }

describe('operationText (a stored description read back as a key and parameters)', () => {
  it('reads the templates the domain writes', () => {
    expect(operationText('bond_cancel', 'Bond #17 cancelled, 10% penalty kept')).toEqual({ key: 'operation.bond_cancel', params: { bond: '17' } })
    expect(operationText('bond_reward', 'Bond #3 reward on staking')).toEqual({ key: 'operation.bond_reward_staked', params: { bond: '3' } })
    expect(operationText('bond_reward', 'Bond #3 reward')).toEqual({ key: 'operation.bond_reward', params: { bond: '3' } })
    expect(operationText('task_reward', 'Task: Join the AXIOM community')).toEqual({
      key: 'operation.task_reward',
      params: { task: 'Join the AXIOM community', task_key: 'task.title.community' },
    })
    expect(operationText('withdraw', 'Sale #4 to EQB6HAtO…')).toEqual({ key: 'operation.withdraw', params: { sale: '4', address: 'EQB6HAtO…' } })
    // A held sale the operator refused, and a sale its user cancelled from the bot's message: the tokens' way back.
    expect(operationText('withdraw_refund', 'Sale #5 refused: tokens returned')).toEqual({ key: 'operation.sale_refused', params: { sale: '5' } })
    expect(operationText('withdraw_refund', 'Sale #6 cancelled: tokens returned')).toEqual({ key: 'operation.sale_cancelled', params: { sale: '6' } })
    for (const key of ['operation.sale_refused', 'operation.sale_cancelled'] as const) {
      expect(en[key]).toContain('{sale}')
      expect(ru[key]).toContain('{sale}')
    }
  })

  it('gives no key to a text no template makes, nor to a template under another type', () => {
    expect(operationText('admin_credit', 'Goodwill after the outage')).toBeNull()
    expect(operationText('bond_reward', 'Bond #3 cancelled, 10% penalty kept')).toBeNull()
  })
})

describe('texts the backend sends as keys (tasks, operations history)', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer()
  })
  afterAll(() => t.close())

  it('every task has a title key both catalogues hold, and keeps its English title', async () => {
    const s = await t.login(7001)
    const tasks = decode(TaskList, (await s.call('GET', '/task/list')).body)
    expect(tasks.length).toBeGreaterThan(0)
    for (const task of tasks) {
      expect(task.title_key).toMatch(/^task\.title\./)
      expect(en[task.title_key as keyof typeof en]).toBe(task.title)
      expect(ru[task.title_key as keyof typeof ru]).toBeTruthy()
      expect(task.title_params).toEqual({})
    }
  })

  it("every row of a user's history has a key both catalogues hold; bonds carry the user's own number", async () => {
    const other = await t.login(7002)
    await other.call('POST', '/mint/create', { body: { amount: 2, days: 30 } })
    const s = await t.login(7003)
    // Welcome, a task's reward, a bond cancelled, a farming link funded and revoked.
    for (const step of ['start', 'validate', 'claim']) await s.call('POST', `/task/${step}`, { body: { task_id: 1 } })
    const created = await s.call('POST', '/mint/create', { body: { amount: 10, days: 30 } })
    const mintId = BigInt(created.body.mint.id)
    await t.server.markMintPaid(Number(mintId))
    expect((await s.call('POST', `/mint/${mintId}/cancel`)).status).toBe(200)
    const link = await s.call('POST', '/farming/create', {
      body: { amount: 3, days: 10, count_activations: 1, from_ref_balance: false, from_task_balance: false, is_multilink: false, is_for_me: false },
    })
    expect(link.status).toBe(200)
    expect((await s.call('POST', `/farming/${link.body.id}/cancel`)).status).toBe(200)

    const history = decode(OperationHistory, (await s.call('GET', '/operations/history', { query: { size: 50 } })).body)
    const keys = history.items.map((o) => o.description_key)
    expect(keys).toEqual(
      expect.arrayContaining(['operation.welcome', 'operation.task_reward', 'operation.bond_cancel', 'operation.farming_fund', 'operation.farming_refund']),
    )
    for (const op of history.items) {
      expect(op.description_key, op.description).toBeTruthy()
      expect(en[op.description_key as keyof typeof en]).toBeTruthy()
      expect(ru[op.description_key as keyof typeof ru]).toBeTruthy()
      expect(op.description).toBeTruthy()
    }
    const cancel = history.items.find((o) => o.description_key === 'operation.bond_cancel')!
    expect(cancel.description).toBe(`Bond #${mintId} cancelled, 10% penalty kept`)
    expect(cancel.description_params).toEqual({ bond: String(mintId), bond_number: 1 })
    const mints = decode(MintList, (await s.call('GET', '/mint/')).body)
    expect(mints.items.map((m) => [m.id, m.number])).toEqual([[String(mintId), 1]])
  })
})
