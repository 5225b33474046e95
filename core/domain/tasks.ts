import { TASK_CLAIMED, type Task, type TaskStatus } from './entities/task.ts'

/** Tasks not yet claimed: the Tasks tab badge (spec §2, §4). */
export const countActiveTasks = (tasks: ReadonlyArray<Pick<Task, 'status'>>): number =>
  tasks.filter((t) => t.status !== TASK_CLAIMED).length

export type TaskStep = 'start' | 'validate' | 'claim'

/** The next step of the task flow start → validate → claim (spec §4), or null when claimed. */
export const nextTaskStep = (status: TaskStatus): TaskStep | null => {
  switch (status) {
    case 'NEW':
      return 'start'
    case 'STARTED':
      return 'validate'
    case 'VALIDATED':
      return 'claim'
    case 'CLAIMED':
      return null
  }
}
