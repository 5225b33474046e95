import { observer } from 'mobx-react-lite'
import { useId, useState } from 'react'
import { formatAmount, type Task } from '../../../core/index.ts'
import { useErrorFeedback, useTasksState } from '../app-states.ts'
import { Button } from '../../components/button.tsx'
import { type IconProps, Svg } from '../../components/icons.tsx'
import { Modal } from '../../components/modal.tsx'
import { useLastDefined } from '../../hooks/use-last-defined.ts'
import { useT } from '../../i18n/use-t.ts'
import { PHOTO_MAX_BYTES, PhotoUnreadable, type PreparedPhoto, preparePhoto } from './photo-shrink.ts'

/** Also the tasks list's photo step. */
export const CameraIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 8a2 2 0 0 1 2-2h1.5L9 4h6l1.5 2H18a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V8Z" />
    <circle cx="12" cy="13" r="3.5" />
  </Svg>
)

/** Megabytes as the sheet shows them: 2 places, truncated like every figure. */
const megabytes = (bytes: number): string => formatAmount(bytes / 1024 / 1024)

/**
 * A photo task's proof (spec §2: tasks add-photo modal). The limit is said before a photo is chosen;
 * a larger photo is made smaller in the browser (photo-shrink.ts) before it is sent. While it is sent
 * the button is busy and a progress line says so; the server's 413, should it come, is the §8 toast
 * and is said here too, beside the photo.
 */
export const AddPhotoModal = observer(function AddPhotoModal({ task, onClose }: { readonly task: Task | null; readonly onClose: () => void }) {
  const tasks = useTasksState()
  const errors = useErrorFeedback()
  const t = useT()
  const id = useId()
  const shown = useLastDefined(task)
  const [photo, setPhoto] = useState<PreparedPhoto | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [preparing, setPreparing] = useState(false)
  const sending = shown ? tasks.isBusy(shown) : false
  const refused = shown && !sending && tasks.failureOf(shown) === 'PayloadTooLarge' ? t('photo.tooLarge') : null

  const close = () => {
    setPhoto(null)
    setError(null)
    onClose()
  }

  const choose = async (file: File | undefined) => {
    setError(null)
    if (shown) tasks.clearFailure(shown)
    if (!file) return
    const refuse = (message: string) => {
      setPhoto(null)
      setError(message)
      errors.inPlace()
    }
    if (!file.type.startsWith('image/')) return refuse(t('photo.notImage'))
    setPreparing(true)
    try {
      setPhoto(await preparePhoto(file))
    } catch (e) {
      refuse(e instanceof PhotoUnreadable ? t('photo.unreadable') : t('photo.readFailed'))
    } finally {
      setPreparing(false)
    }
  }

  const submit = async () => {
    if (!shown || !photo) return
    const r = await tasks.advance(shown, { photo: photo.dataUrl })
    if (r) close()
  }

  const busy = sending || preparing
  return (
    <Modal
      open={task !== null}
      onClose={close}
      icon={<CameraIcon size={28} />}
      title={t('photo.title')}
      testId="add-photo-modal"
      actions={
        <Button block busy={busy} disabled={!photo} onClick={() => void submit()} testId="photo-submit">
          {preparing ? t('photo.reading') : sending ? t('photo.sending') : t('photo.submit')}
        </Button>
      }
    >
      <p className="muted">{t('photo.body')}</p>
      <p className="photo-limit" data-testid="photo-limit">
        {t('photo.limit', { size: megabytes(PHOTO_MAX_BYTES) })}
      </p>
      <label className={`photo-drop${photo ? ' has-photo' : ''}`} htmlFor={id}>
        {photo ? <img src={photo.dataUrl} alt={photo.name} className="photo-drop__preview" /> : <CameraIcon size={32} />}
        <span className="photo-drop__label">{photo ? t('photo.change') : t('photo.choose')}</span>
        {photo ? (
          <span className="photo-drop__meta num" data-testid="photo-size">
            {photo.scaled ? t('photo.scaled', { from: megabytes(photo.originalBytes), size: megabytes(photo.bytes) }) : t('photo.size', { size: megabytes(photo.bytes) })}
          </span>
        ) : null}
      </label>
      <input
        id={id}
        className="visually-hidden"
        type="file"
        accept="image/*"
        disabled={busy}
        onChange={(e) => void choose(e.target.files?.[0])}
        data-testid="photo-input"
      />
      {busy ? (
        <div className="photo-progress" role="status" data-testid="photo-progress">
          <span>{preparing ? t('photo.preparing') : t('photo.sendingSize', { size: megabytes(photo?.bytes ?? 0) })}</span>
          <progress aria-label={preparing ? t('photo.preparing') : t('photo.sending')} />
        </div>
      ) : null}
      {error || refused ? (
        <p className="field__error" role="alert" data-testid="photo-error">
          {error ?? refused}
        </p>
      ) : null}
    </Modal>
  )
})
