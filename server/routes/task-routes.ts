import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { claimTask, listTasks, startTask, taskById, validateTask } from '../domain/tasks.ts'
import { refreshMembership } from '../domain/membership.ts'
import { bodyFields, intField } from '../http/params.ts'
import { taskWire } from '../http/wire-format.ts'

/** The task validation's route: it carries a photo (task 3). */
export const PHOTO_ROUTE = '/task/validate'

const taskId = (body: Record<string, unknown>) => intField(body, 'task_id', { min: 1, max: 1_000_000 })

export const taskRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/task/list', async (req) => (await listTasks(ctx, req.userId)).map(taskWire))
  app.post('/task/start', async (req) => taskWire(await startTask(ctx, req.userId, taskId(bodyFields(req.body)))))
  // The photo comes base64 in JSON: this route alone takes a large body (every other one, config.bodyLimitBytes).
  app.post(PHOTO_ROUTE, { bodyLimit: ctx.config.photoBodyLimitBytes }, async (req) => {
    const body = bodyFields(req.body)
    const id = taskId(body)
    // Joining is proven, not declared: Telegram is asked before the community task is validated.
    if (taskById(id).kind === 'community') await refreshMembership(ctx, req.userId)
    return taskWire(await validateTask(ctx, req.userId, id, body))
  })
  app.post('/task/claim', async (req) => taskWire(await claimTask(ctx, req.userId, taskId(bodyFields(req.body)))))
}
