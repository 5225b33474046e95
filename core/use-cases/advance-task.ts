import { Effect } from 'effect'
import { nextTaskStep } from '../domain/tasks.ts'
import type { Task, TaskValidation } from '../domain/entities/task.ts'
import { type ApiError, InvalidInput } from '../errors.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'

type TaskApi = Pick<AxiomApi, 'startTask' | 'validateTask' | 'claimTask'>

/**
 * Moves a task one step along start → validate → claim (spec §4). The step is taken from the
 * task's status, so the order cannot be broken from the client; validation carries the task's
 * proof (a link or a photo).
 */
export const advanceTask =
  (deps: { readonly api: TaskApi }) =>
  (task: Pick<Task, 'task_id' | 'status'>, proof: Omit<TaskValidation, 'task_id'> = {}): Effect.Effect<Task, ApiError | InvalidInput> => {
    switch (nextTaskStep(task.status)) {
      case 'start':
        return deps.api.startTask({ task_id: task.task_id })
      case 'validate':
        return deps.api.validateTask({ task_id: task.task_id, ...proof })
      case 'claim':
        return deps.api.claimTask({ task_id: task.task_id })
      case null:
        return Effect.fail(new InvalidInput({ field: 'task_id', msg: 'This task is already claimed' }))
    }
  }
