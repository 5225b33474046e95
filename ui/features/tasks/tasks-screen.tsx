import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { Link } from 'wouter'
import { formatAmount, nextTaskStep, type Task, type TaskStep } from '../../../core/index.ts'
import { useSessionState, useTasksState } from '../app-states.ts'
import { useLinkOpener } from '../../lib/host-contexts.ts'
import { Button } from '../../components/button.tsx'
import { CardBalance } from '../../components/card-balance.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { CheckIcon, RebondIcon, SellIcon, TasksIcon } from '../../components/icons.tsx'
import { LinkIcon } from '../../components/link-icon.tsx'
import { ScreenHeader } from '../../components/section.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { serverText } from '../../i18n/server-text.ts'
import { type MessageKey, useT } from '../../i18n/use-t.ts'
import { AddPhotoModal, CameraIcon } from './add-photo-modal.tsx'
import { LinkVerificationModal } from './link-verification-modal.tsx'
import '../../styles/tasks.css'
import '../../styles/new-user.css'

const STEP_LABEL: Record<TaskStep, MessageKey> = { start: 'tasks.start', validate: 'tasks.validate', claim: 'tasks.claim' }

/** What the row says of where the task stands, once it is under way: what happened and what comes next. */
const stepNote = (task: Task, step: TaskStep | null, joined: boolean): MessageKey | null => {
  if (joined) return 'tasks.note.joined'
  if (step === 'validate') return task.kind === 'photo' ? 'tasks.note.startedPhoto' : task.kind === 'link' ? 'tasks.note.startedLink' : 'tasks.note.started'
  if (step === 'claim') return task.kind === 'photo' ? 'tasks.note.photoAccepted' : 'tasks.note.checked'
  return null
}

const TaskRow = observer(function TaskRow({
  task,
  onNeedLink,
  onNeedPhoto,
}: {
  readonly task: Task
  readonly onNeedLink: (t: Task) => void
  readonly onNeedPhoto: (t: Task) => void
}) {
  const tasks = useTasksState()
  const openLink = useLinkOpener()
  const t = useT()
  const id = task.task_id
  // A community task the user has already joined shows done: only its reward is left, one tap away.
  const joined = tasks.isJoined(task)
  const step = joined ? 'claim' : nextTaskStep(task.status)
  const done = step === null || joined
  const note = stepNote(task, step, joined)
  const act = () => {
    if (step === 'start' && task.url) openLink(task.url)
    if (step === 'validate' && task.kind === 'link') return onNeedLink(task)
    if (step === 'validate' && task.kind === 'photo') return onNeedPhoto(task)
    void tasks.advance(task)
  }
  return (
    <li className={`task${step === null ? ' is-done' : joined ? ' is-joined' : ''}`} data-testid={`task-${id}`}>
      <span className="task__icon" aria-hidden="true">
        {done ? <CheckIcon size={20} /> : task.kind === 'photo' ? <CameraIcon size={20} /> : task.kind === 'link' ? <LinkIcon size={20} /> : <TasksIcon size={20} />}
      </span>
      <span className="task__main">
        <span className="task__title">{serverText(t, task.title_key, task.title_params, task.title ?? t('tasks.task', { id }))}</span>
        {task.reward !== undefined ? <span className="task__reward num">{t('tasks.reward', { amount: formatAmount(task.reward) })}</span> : null}
        {note ? (
          <span className="task__note" role="status" data-testid={`task-note-${id}`}>
            {t(note)}
          </span>
        ) : null}
      </span>
      {step === null ? (
        <span className="status status--completed" data-testid={`task-claimed-${id}`}>
          {t('tasks.claimed')}
        </span>
      ) : (
        <Button size="sm" variant={step === 'claim' ? 'primary' : 'secondary'} busy={tasks.isBusy(task)} onClick={act} testId={`task-action-${id}`}>
          {t(STEP_LABEL[step])}
        </Button>
      )}
    </li>
  )
})

const TaskBalance = observer(function TaskBalance() {
  const session = useSessionState()
  const t = useT()
  const balance = session.user?.task_balance
  return (
    <CardBalance
      label={t('balance.task')}
      amount={balance !== undefined ? formatAmount(balance) : <Skeleton width={90} height={22} />}
      testId="tasks-balance"
      footer={
        <div className="button-row">
          <Link to="/tasks/re-bonding" className="btn btn--secondary btn--sm" data-testid="link-tasks-rebond">
            <RebondIcon size={16} />
            <span>{t('tasks.rebond')}</span>
          </Link>
          <Link to="/tasks/sell" className="btn btn--secondary btn--sm" data-testid="link-tasks-sell">
            <SellIcon size={16} />
            <span>{t('tasks.sell')}</span>
          </Link>
        </div>
      }
    />
  )
})

/** Route /tasks: each task's next step (start → validate → claim), with the proof modals. */
export const TasksScreen = observer(function TasksScreen() {
  const tasks = useTasksState()
  const t = useT()
  const [linkTask, setLinkTask] = useState<Task | null>(null)
  const [photoTask, setPhotoTask] = useState<Task | null>(null)
  return (
    <div className="screen-stack" data-testid="screen-tasks">
      <ScreenHeader title={t('tasks.title')} subtitle={t('tasks.subtitle')} />
      <TaskBalance />
      {tasks.tasks.length === 0 ? (
        <EmptyState icon={<TasksIcon size={28} />} title={t('tasks.empty')} hint={t('tasks.emptyHint')} testId="tasks-empty" />
      ) : (
        <ul className="task-list" data-testid="tasks-list">
          {tasks.tasks.map((task) => (
            <TaskRow key={task.task_id} task={task} onNeedLink={setLinkTask} onNeedPhoto={setPhotoTask} />
          ))}
        </ul>
      )}
      <LinkVerificationModal task={linkTask} onClose={() => setLinkTask(null)} />
      <AddPhotoModal task={photoTask} onClose={() => setPhotoTask(null)} />
    </div>
  )
})
