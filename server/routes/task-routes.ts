import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../context.ts'
import { claimTask, listTasks, startTask, validateTask } from '../domain/tasks.ts'
import { bodyFields, intField } from '../http/params.ts'

const taskId = (body: Record<string, unknown>) => intField(body, 'task_id', { min: 1, max: 1_000_000 })

export const taskRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/task/list', async (req) => listTasks(ctx, req.userId))
  app.post('/task/start', async (req) => startTask(ctx, req.userId, taskId(bodyFields(req.body))))
  app.post('/task/validate', async (req) => {
    const body = bodyFields(req.body)
    return validateTask(ctx, req.userId, taskId(body), body)
  })
  app.post('/task/claim', async (req) => claimTask(ctx, req.userId, taskId(bodyFields(req.body))))
}
