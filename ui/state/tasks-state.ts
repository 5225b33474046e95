import type { Effect } from 'effect'
import { makeAutoObservable, runInAction } from 'mobx'
import {
  type ApiError,
  countActiveTasks,
  type InvalidInput,
  type Feedback,
  reportUnlessReported,
  type Task,
  type TaskValidation,
} from '../../core/index.ts'
import { runResult } from './run-effect.ts'

export interface TaskUseCases {
  readonly loadTasks: () => Effect.Effect<ReadonlyArray<Task>, ApiError>
  readonly advanceTask: (task: Pick<Task, 'task_id' | 'status'>, proof?: Omit<TaskValidation, 'task_id'>) => Effect.Effect<Task, ApiError | InvalidInput>
}

/** Tasks: the list, its badge, and the start → validate → claim flow (spec §4). */
export class TasksState {
  tasks: ReadonlyArray<Task> = []
  busyIds = new Set<string>()

  constructor(
    private readonly uc: TaskUseCases,
    private readonly feedback: Feedback,
    private readonly onClaimed: () => void = () => {},
  ) {
    makeAutoObservable<this, 'uc' | 'feedback' | 'onClaimed'>(this, { uc: false, feedback: false, onClaimed: false })
  }

  async refresh(): Promise<void> {
    const r = await runResult(this.uc.loadTasks())
    runInAction(() => {
      if (r._tag === 'Success') this.tasks = r.success
    })
  }

  /** The Tasks tab badge: tasks not yet claimed. */
  get badge(): number {
    return countActiveTasks(this.tasks)
  }

  isBusy(task: Pick<Task, 'task_id'>): boolean {
    return this.busyIds.has(String(task.task_id))
  }

  /** Takes the task's next step; one step at a time per task. */
  async advance(task: Task, proof?: Omit<TaskValidation, 'task_id'>): Promise<Task | null> {
    const key = String(task.task_id)
    if (this.busyIds.has(key)) return null
    this.busyIds.add(key)
    const r = await runResult(this.uc.advanceTask(task, proof))
    runInAction(() => {
      this.busyIds.delete(key)
      if (r._tag === 'Success') this.tasks = this.tasks.map((t) => (String(t.task_id) === key ? { ...t, ...r.success } : t))
      else reportUnlessReported(this.feedback)(r.failure)
    })
    if (r._tag === 'Success' && r.success.status === 'CLAIMED') this.onClaimed()
    return r._tag === 'Success' ? r.success : null
  }
}
