import { Schema } from 'effect'
import { Amount, TaskId } from './primitives.ts'

/** The status a task ends in (spec §4). Other statuses are the reference backend's. */
export const TASK_CLAIMED = 'CLAIMED'
export const TASK_STATUSES = ['NEW', 'STARTED', 'VALIDATED', TASK_CLAIMED] as const
export const TaskStatus = Schema.Literals(TASK_STATUSES)
export type TaskStatus = typeof TaskStatus.Type

/** How a task is validated: nothing to send, a link to visit, or a photo to upload. */
export const TaskKind = Schema.Literals(['community', 'link', 'photo'])
export type TaskKind = typeof TaskKind.Type

export const Task = Schema.Struct({
  task_id: TaskId,
  status: TaskStatus,
  title: Schema.optional(Schema.String),
  /** The title as a key the app translates, and its parameters; `title` stays English. */
  title_key: Schema.optional(Schema.NullOr(Schema.String)),
  title_params: Schema.optional(Schema.NullOr(Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite])))),
  kind: Schema.optional(TaskKind),
  url: Schema.optional(Schema.NullOr(Schema.String)),
  reward: Schema.optional(Amount),
})
export type Task = typeof Task.Type
export const TaskList = Schema.Array(Task)

/** The body of `POST /task/validate`: the spec leaves its shape open. */
export interface TaskValidation {
  readonly task_id: Task['task_id']
  readonly link?: string
  /** A photo as a base64 data URL. */
  readonly photo?: string
}
