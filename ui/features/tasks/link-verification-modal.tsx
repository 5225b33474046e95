import { observer } from 'mobx-react-lite'
import { type FormEvent, useId, useState } from 'react'
import type { Task } from '../../../core/index.ts'
import { useTasksState } from '../app-states.ts'
import { useLinkOpener } from '../../lib/host-contexts.ts'
import { Button } from '../../components/button.tsx'
import { LinkIcon } from '../../components/link-icon.tsx'
import { Modal } from '../../components/modal.tsx'
import { useLastDefined } from '../../hooks/use-last-defined.ts'
import { useT } from '../../i18n/use-t.ts'

const isHttpUrl = (s: string): boolean => {
  try {
    const u = new URL(s.trim())
    return u.protocol === 'http:' || u.protocol === 'https:'
  } catch {
    return false
  }
}

/** A link task's check: the user gives the URL they visited (spec §2: tasks link-verification modal). */
export const LinkVerificationModal = observer(function LinkVerificationModal({ task, onClose }: { readonly task: Task | null; readonly onClose: () => void }) {
  const tasks = useTasksState()
  const t = useT()
  const openLink = useLinkOpener()
  const id = useId()
  const shown = useLastDefined(task)
  const [url, setUrl] = useState('')
  const [touched, setTouched] = useState(false)
  const valid = isHttpUrl(url)
  const busy = shown ? tasks.isBusy(shown) : false
  const close = () => {
    setUrl('')
    setTouched(false)
    onClose()
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!shown || !valid) return
    const r = await tasks.advance(shown, { link: url.trim() })
    if (r) close()
  }
  return (
    <Modal open={task !== null} onClose={close} icon={<LinkIcon size={28} />} title={t('linkCheck.title')} testId="link-verification-modal">
      <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
        <p className="muted">{t('linkCheck.body')}</p>
        {shown?.url ? (
          <Button variant="ghost" size="sm" icon={<LinkIcon size={16} />} onClick={() => openLink(shown.url!)} testId="link-verification-open">
            {t('linkCheck.open')}
          </Button>
        ) : null}
        <div className={`field${touched && !valid ? ' has-error' : ''}`}>
          <label className="field__label" htmlFor={id}>
            {t('linkCheck.label')}
          </label>
          <div className="field__control">
            <input
              id={id}
              className="field__input"
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              onBlur={() => setTouched(true)}
              aria-invalid={touched && !valid ? true : undefined}
              aria-describedby={touched && !valid ? `${id}-error` : undefined}
              data-testid="link-verification-input"
              data-autofocus
            />
          </div>
          {touched && !valid ? (
            <p className="field__error" id={`${id}-error`} role="alert">
              {t('linkCheck.invalid')}
            </p>
          ) : null}
        </div>
        <Button type="submit" block busy={busy} disabled={!valid} testId="link-verification-submit">
          {t('linkCheck.submit')}
        </Button>
      </form>
    </Modal>
  )
})
