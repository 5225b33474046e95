import { getRow, run, str } from '../db/sql.ts'
import { FileTooLarge, InvalidInput, NotFound, TaskStepOutOfOrder } from './errors.ts'
import { proveCommunity } from './membership.ts'
import { inTx, type ServerContext } from './context.ts'
import { tokens } from './money.ts'
import { moveBalance } from './ledger.ts'

export type TaskStatus = 'NEW' | 'STARTED' | 'VALIDATED' | 'CLAIMED'

export interface CatalogueTask {
  readonly id: number
  readonly kind: 'community' | 'link' | 'photo'
  readonly title: string
  /** The title's key in the app's catalogues (`title` stays for a client that has none). */
  readonly titleKey: string
  readonly url: string | null
  readonly reward: bigint
}

export const COMMUNITY_URL = 'https://t.me/axiom_community'

/** The seeded catalogue; validating the community task makes the user a community member. */
export const TASKS: ReadonlyArray<CatalogueTask> = [
  { id: 1, kind: 'community', title: 'Join the AXIOM community', titleKey: 'task.title.community', url: COMMUNITY_URL, reward: tokens(5) },
  { id: 2, kind: 'link', title: 'Visit the AXIOM news channel', titleKey: 'task.title.news', url: 'https://t.me/axiom_news', reward: tokens(3) },
  { id: 3, kind: 'photo', title: 'Share a photo of AXIOM in the wild', titleKey: 'task.title.photo', url: null, reward: tokens(10) },
]

export const taskById = (id: number): CatalogueTask => {
  const task = TASKS.find((t) => t.id === id)
  if (!task) throw new NotFound('Task')
  return task
}

const statusOf = async (ctx: ServerContext, userId: bigint, taskId: number): Promise<TaskStatus> => {
  const row = await getRow(ctx.db, 'SELECT status FROM task_progress WHERE user_id = ? AND task_id = ?', userId, taskId)
  return row ? (str(row, 'status') as TaskStatus) : 'NEW'
}

/** A catalogue task and where this user is with it. */
export interface TaskProgress {
  readonly task: CatalogueTask
  readonly status: TaskStatus
}

export const listTasks = (ctx: ServerContext, userId: bigint): Promise<TaskProgress[]> =>
  Promise.all(TASKS.map(async (task) => ({ task, status: await statusOf(ctx, userId, task.id) })))

const setStatus = (ctx: ServerContext, userId: bigint, taskId: number, status: TaskStatus) =>
  run(
    ctx.db,
    `INSERT INTO task_progress (user_id, task_id, status, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(user_id, task_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
    userId,
    taskId,
    status,
    ctx.now(),
  )

/** Moves a task one step; any other order is refused with 409 and a message naming the next step. */
const step = (
  ctx: ServerContext,
  userId: bigint,
  task: CatalogueTask,
  from: TaskStatus,
  to: TaskStatus,
  before?: (tx: ServerContext) => Promise<void>,
): Promise<TaskProgress> =>
  inTx(ctx, async (ctx) => {
    const status = await statusOf(ctx, userId, task.id)
    if (status !== from) {
      const next: Record<TaskStatus, string> = {
        NEW: 'Start the task first',
        STARTED: 'Validate the task first',
        VALIDATED: 'Claim the task',
        CLAIMED: 'The task is already claimed',
      }
      throw new TaskStepOutOfOrder(next[status])
    }
    await before?.(ctx)
    await setStatus(ctx, userId, task.id, to)
    return { task, status: to }
  })

export const startTask = (ctx: ServerContext, userId: bigint, taskId: number) => step(ctx, userId, taskById(taskId), 'NEW', 'STARTED')

const PHOTO = /^data:image\/(png|jpe?g|webp|gif|heic);base64,([A-Za-z0-9+/]+={0,2})$/

/** Bytes a base64 payload decodes to, without decoding it. */
const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0)

/** A visited link is a URL, not a document. */
export const MAX_LINK_LENGTH = 2_048

/** Drops trailing slashes in one pass (a regex here would be quadratic on hostile input). */
const withoutTrailingSlashes = (s: string): string => {
  let end = s.length
  while (end > 0 && s.charCodeAt(end - 1) === 47) end--
  return s.slice(0, end)
}

/** What a validation must carry for each kind: nothing, the task's link, or a photo as a data URL. */
const checkProof = (ctx: ServerContext, task: CatalogueTask, body: Record<string, unknown>) => {
  if (task.kind === 'link') {
    if (typeof body.link !== 'string') throw new InvalidInput('link is required')
    if (body.link.length > MAX_LINK_LENGTH) throw new InvalidInput(`link must be at most ${MAX_LINK_LENGTH} characters`)
    const link = withoutTrailingSlashes(body.link.trim())
    if (link !== task.url) throw new InvalidInput('The link does not match the task')
  }
  if (task.kind === 'photo') {
    const photo = body.photo
    if (typeof photo !== 'string' || photo === '') throw new InvalidInput('photo is required as a base64 data URL')
    const comma = photo.indexOf(',')
    if (comma >= 0 && base64Bytes(photo.slice(comma + 1)) > ctx.config.maxPhotoBytes) throw new FileTooLarge()
    if (photo.length > ctx.config.maxPhotoBytes * 2 || !PHOTO.test(photo)) throw new InvalidInput('photo must be a base64 image data URL')
  }
}

export const validateTask = (ctx: ServerContext, userId: bigint, taskId: number, body: Record<string, unknown>) => {
  const task = taskById(taskId)
  return step(ctx, userId, task, 'STARTED', 'VALIDATED', async (tx) => {
    checkProof(tx, task, body)
    if (task.kind === 'community') await proveCommunity(tx, userId)
  })
}

export const claimTask = (ctx: ServerContext, userId: bigint, taskId: number) => {
  const task = taskById(taskId)
  return step(ctx, userId, task, 'VALIDATED', 'CLAIMED', async (tx) => {
    await moveBalance(tx, userId, 'task_balance', task.reward, 'task_reward', `Task: ${task.title}`)
  })
}
