import { describe, expect, it } from 'vitest'
import { type TaskStatus, toId } from '../../../core/index.ts'
import { advanceTask } from '../../../core/use-cases/advance-task.ts'
import { useCasesOver } from '../fakes/use-cases.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { aTask } from '../fakes/records.ts'
import { failure, succeed } from '../fakes/run.ts'

const withTask = (status: TaskStatus) => {
  const api = new FakeAxiomApi()
  api.taskList = [aTask({ task_id: 7, status })]
  return { api, advance: advanceTask({ api }) }
}

describe('advanceTask', () => {
  it.each([
    ['NEW', 'startTask', 'STARTED'],
    ['STARTED', 'validateTask', 'VALIDATED'],
    ['VALIDATED', 'claimTask', 'CLAIMED'],
  ] as const)('a %s task takes the %s step', async (status, method, next) => {
    const { api, advance } = withTask(status)

    const task = await succeed(advance({ task_id: toId(7), status }))

    expect(api.calls.map((c) => c.method)).toEqual([method])
    expect(task.status).toBe(next)
  })

  it('validation carries the proof', async () => {
    const { api, advance } = withTask('STARTED')

    await succeed(advance({ task_id: toId(7), status: 'STARTED' }, { link: 'https://t.me/axiom/5' }))

    expect(api.callsTo('validateTask')[0]!.input).toEqual({ task_id: '7', link: 'https://t.me/axiom/5' })
  })

  it('walks a new task to claimed in three steps', async () => {
    const { api, advance } = withTask('NEW')

    for (let i = 0; i < 3; i++) await succeed(advance(api.taskList[0]!))

    expect(api.taskList[0]!.status).toBe('CLAIMED')
    expect(api.calls.map((c) => c.method)).toEqual(['startTask', 'validateTask', 'claimTask'])
  })

  it('a claimed task cannot be advanced, and nothing is sent', async () => {
    const { api, advance } = withTask('CLAIMED')

    expect(await failure(advance({ task_id: toId(7), status: 'CLAIMED' }))).toMatchObject({ _tag: 'InvalidInput', field: 'task_id' })
    expect(api.calls).toEqual([])
  })

  it('loads the task list', async () => {
    const { api } = withTask('NEW')

    expect(await succeed(useCasesOver({ api }).loadTasks())).toEqual(api.taskList)
  })
})
