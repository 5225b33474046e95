import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { nextTaskStep, toId, type Task, type TaskStep } from '../../core/index.ts'
import { stringArg, UsageError, wholeArg } from '../args.ts'
import { tokens } from '../output.ts'
import { type Column, table } from '../table.ts'
import type { Command } from './command.ts'

const taskColumns: ReadonlyArray<Column<Task>> = [
  { header: 'ID', value: (t) => t.task_id, align: 'right' },
  { header: 'STATUS', value: (t) => t.status },
  { header: 'NEXT', value: (t) => nextTaskStep(t.status) ?? '-' },
  { header: 'REWARD', value: (t) => (t.reward === undefined ? '-' : tokens(t.reward)), align: 'right' },
  { header: 'KIND', value: (t) => t.kind ?? '-' },
  { header: 'TITLE', value: (t) => t.title ?? '' },
  { header: 'URL', value: (t) => t.url ?? '' },
]

export const tasks: Command = {
  name: 'tasks',
  args: '',
  summary: 'Tasks and their next step',
  examples: ['axiom tasks'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const list = await out.exec(ctx.uc.loadTasks(), 'Loading tasks')
    out.emit(list, () => table(list, taskColumns, 'No tasks'))
  },
}

const PHOTO_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
}

export const taskStep = (step: TaskStep): Command => ({
  name: `tasks ${step}`,
  args: step === 'validate' ? '<id> [--link URL] [--photo FILE]' : '<id>',
  summary:
    step === 'start'
      ? 'Start a task'
      : step === 'validate'
        ? 'Validate a task: a link task takes --link (default: its URL), a photo task --photo'
        : 'Claim a validated task: its reward goes to the task balance',
  examples: step === 'validate' ? ['axiom tasks validate 3 --photo proof.png'] : [`axiom tasks ${step} 1`],
  ...(step === 'validate' ? { options: { link: { type: 'string' }, photo: { type: 'string' } } as const } : {}),
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const id = wholeArg(a.positionals[0], '<id>')
    let photo: string | undefined
    if (a.values.photo !== undefined) {
      const file = stringArg(a.values.photo, '--photo FILE')
      const type = PHOTO_TYPES[extname(file).toLowerCase()]
      if (!type) throw new UsageError(`--photo must be a ${Object.keys(PHOTO_TYPES).join(', ')} image, got "${file}"`)
      let bytes: Buffer
      try {
        bytes = readFileSync(file)
      } catch {
        throw new UsageError(`Cannot read the photo "${file}"`)
      }
      photo = `data:${type};base64,${bytes.toString('base64')}`
    }
    const link = a.values.link === undefined ? undefined : stringArg(a.values.link, '--link URL')
    const list = await out.exec(ctx.uc.loadTasks(), 'Loading tasks')
    const task = list.find((t) => t.task_id === toId(id))
    if (!task) throw new UsageError(`No task ${id}. See: axiom tasks`)
    const next = nextTaskStep(task.status)
    if (next !== step)
      throw new UsageError(`Task ${id} is ${task.status}; ${next ? `its next step is: axiom tasks ${next} ${id}` : 'it is done'}`)
    const proof = step === 'validate' ? { ...((link ?? (task.kind === 'link' ? task.url : undefined)) ? { link: link ?? task.url! } : {}), ...(photo ? { photo } : {}) } : {}
    const updated = await out.exec(ctx.uc.advanceTask(task, proof), step === 'validate' ? 'Validating' : 'Sending')
    const after = nextTaskStep(updated.status)
    out.emit(updated, `Task ${updated.task_id} is ${updated.status}${after ? ` · next: axiom tasks ${after} ${updated.task_id}` : ''}\n`)
  },
})
