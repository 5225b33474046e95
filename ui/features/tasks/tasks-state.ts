import { makeAutoObservable, runInAction } from 'mobx'
import { countActiveTasks, type Id, isUnanswered, type Task, type TaskValidation, type UseCases } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'
import type { SessionState } from '../../state/session-state.ts'

/** What the tasks view model calls. */
export type TaskUseCases = Pick<UseCases, 'loadTasks' | 'advanceTask'>

/** Tasks: the list, its badge, and the start → validate → claim flow (spec §4). */
export class TasksState {
  tasks: ReadonlyArray<Task> = []
  busyIds = new Set<Id>()

  constructor(
    private readonly uc: TaskUseCases,
    /** A claimed reward lands on the task balance: the user's balances are reloaded. */
    private readonly balances: Pick<SessionState, 'refresh'>,
  ) {
    makeAutoObservable<this, 'uc' | 'balances'>(this, { uc: false, balances: false })
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
    return this.busyIds.has(task.task_id)
  }

  /** Takes the task's next step; one step at a time per task. */
  async advance(task: Task, proof?: Omit<TaskValidation, 'task_id'>): Promise<Task | null> {
    const key = task.task_id
    if (this.busyIds.has(key)) return null
    this.busyIds.add(key)
    const r = await runResult(this.uc.advanceTask(task, proof))
    runInAction(() => {
      this.busyIds.delete(key)
      if (r._tag === 'Success') this.tasks = this.tasks.map((t) => (t.task_id === key ? { ...t, ...r.success } : t))
    })
    if (r._tag === 'Success' && r.success.status === 'CLAIMED') void this.balances.refresh()
    // No answer (network error, timeout, 5xx): the step may have gone through. The list and the
    // balances are asked again, so the user sees where the task stands instead of tapping into a refusal.
    if (r._tag === 'Failure' && isUnanswered(r.failure)) void Promise.all([this.refresh(), this.balances.refresh()])
    return r._tag === 'Success' ? r.success : null
  }
}
