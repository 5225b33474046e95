import { makeAutoObservable, runInAction } from 'mobx'
import { countActiveTasks, type Id, isUnanswered, nextTaskStep, type Task, type TaskValidation, type UseCases } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'
import type { SessionState } from '../../state/session-state.ts'

/** What the tasks view model calls. */
export type TaskUseCases = Pick<UseCases, 'loadTasks' | 'advanceTask'>

/** Tasks: the list, its badge, and the start → validate → claim flow (spec §4). */
export class TasksState {
  tasks: ReadonlyArray<Task> = []
  busyIds = new Set<Id>()
  /** The tag of the error each task's last step failed with (PayloadTooLarge for a photo over the server's limit), until its next try. */
  failures = new Map<Id, string>()

  constructor(
    private readonly uc: TaskUseCases,
    /**
     * A claimed reward lands on the task balance: the user's balances are reloaded. The user's
     * membership, which the community gate confirmed, is the community task's proof.
     */
    private readonly balances: Pick<SessionState, 'refresh'> & { readonly user?: SessionState['user'] },
  ) {
    makeAutoObservable<this, 'uc' | 'balances'>(this, { uc: false, balances: false })
  }

  async refresh(): Promise<void> {
    const r = await runResult(this.uc.loadTasks())
    runInAction(() => {
      if (r._tag === 'Success') this.tasks = r.success
    })
  }

  /**
   * The Tasks tab badge: the tasks not yet claimed (spec §2). A community task the user has joined
   * counts until its reward is claimed: the reward is what the badge calls them back for.
   */
  get badge(): number {
    return countActiveTasks(this.tasks)
  }

  /** A community task whose joining the app already knows of (the gate confirmed the membership), its reward not yet claimed. */
  isJoined(task: Pick<Task, 'kind' | 'status'>): boolean {
    return task.kind === 'community' && nextTaskStep(task.status) !== null && this.balances.user?.community_participation === true
  }

  /** The tag of the error the task's last step failed with, or null. */
  failureOf(task: Pick<Task, 'task_id'>): string | null {
    return this.failures.get(task.task_id) ?? null
  }

  /** Forgets the last failure (another photo was chosen). */
  clearFailure(task: Pick<Task, 'task_id'>): void {
    this.failures.delete(task.task_id)
  }

  isBusy(task: Pick<Task, 'task_id'>): boolean {
    return this.busyIds.has(task.task_id)
  }

  /**
   * Takes the task's next step; one step at a time per task. A community task the user has already
   * joined takes its remaining steps in one go, up to its reward.
   */
  async advance(task: Task, proof?: Omit<TaskValidation, 'task_id'>): Promise<Task | null> {
    const key = task.task_id
    if (this.busyIds.has(key)) return null
    this.busyIds.add(key)
    this.failures.delete(key)
    const r = await runResult(this.uc.advanceTask(task, proof))
    runInAction(() => {
      this.busyIds.delete(key)
      if (r._tag === 'Success') this.tasks = this.tasks.map((t) => (t.task_id === key ? { ...t, ...r.success } : t))
      else this.failures.set(key, String((r.failure as { readonly _tag?: unknown })._tag))
    })
    if (r._tag === 'Success' && r.success.status !== 'CLAIMED' && this.isJoined(task)) {
      const now = this.tasks.find((t) => t.task_id === key)
      if (now) return this.advance(now)
    }
    if (r._tag === 'Success' && r.success.status === 'CLAIMED') void this.balances.refresh()
    // No answer (network error, timeout, 5xx): the step may have gone through. The list and the
    // balances are asked again, so the user sees where the task stands instead of tapping into a refusal.
    if (r._tag === 'Failure' && isUnanswered(r.failure)) void Promise.all([this.refresh(), this.balances.refresh()])
    return r._tag === 'Success' ? r.success : null
  }
}
