import { observer } from 'mobx-react-lite'
import { useId, useState } from 'react'
import { formatAmount, type Task } from '../../../core/index.ts'
import { useErrorFeedback, useTasksState } from '../../app/contexts.ts'
import { Button } from '../../components/button.tsx'
import { CameraIcon } from '../../components/icons.tsx'
import { Modal } from '../../components/modal.tsx'
import { useLastDefined } from '../../hooks/use-last-defined.ts'
import { useT } from '../../i18n/use-t.ts'

const readAsDataUrl = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsDataURL(file)
  })

/**
 * A photo task's proof (spec §2: tasks add-photo modal). The server decides the size limit:
 * a photo that is too large comes back as 413 and the §8 toast tells the user.
 */
export const AddPhotoModal = observer(function AddPhotoModal({ task, onClose }: { readonly task: Task | null; readonly onClose: () => void }) {
  const tasks = useTasksState()
  const errors = useErrorFeedback()
  const t = useT()
  const id = useId()
  const shown = useLastDefined(task)
  const [photo, setPhoto] = useState<{ readonly name: string; readonly size: number; readonly dataUrl: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [reading, setReading] = useState(false)
  const busy = shown ? tasks.isBusy(shown) : false

  const close = () => {
    setPhoto(null)
    setError(null)
    onClose()
  }

  const choose = async (file: File | undefined) => {
    setError(null)
    if (!file) return
    const refuse = (message: string) => {
      setPhoto(null)
      setError(message)
      errors.inPlace()
    }
    if (!file.type.startsWith('image/')) return refuse(t('photo.notImage'))
    setReading(true)
    try {
      setPhoto({ name: file.name, size: file.size, dataUrl: await readAsDataUrl(file) })
    } catch {
      refuse(t('photo.readFailed'))
    } finally {
      setReading(false)
    }
  }

  const submit = async () => {
    if (!shown || !photo) return
    const r = await tasks.advance(shown, { photo: photo.dataUrl })
    if (r) close()
  }

  return (
    <Modal
      open={task !== null}
      onClose={close}
      icon={<CameraIcon size={28} />}
      title={t('photo.title')}
      testId="add-photo-modal"
      actions={
        <Button block busy={busy || reading} disabled={!photo} onClick={() => void submit()} testId="photo-submit">
          {reading ? t('photo.reading') : t('photo.submit')}
        </Button>
      }
    >
      <p className="muted">{t('photo.body')}</p>
      <label className={`photo-drop${photo ? ' has-photo' : ''}`} htmlFor={id}>
        {photo ? <img src={photo.dataUrl} alt={photo.name} className="photo-drop__preview" /> : <CameraIcon size={32} />}
        <span className="photo-drop__label">{photo ? t('photo.change') : t('photo.choose')}</span>
        {photo ? <span className="photo-drop__meta num">{t('photo.size', { size: formatAmount(photo.size / 1024 / 1024) })}</span> : null}
      </label>
      <input
        id={id}
        className="visually-hidden"
        type="file"
        accept="image/*"
        onChange={(e) => void choose(e.target.files?.[0])}
        data-testid="photo-input"
      />
      {error ? (
        <p className="field__error" role="alert" data-testid="photo-error">
          {error}
        </p>
      ) : null}
    </Modal>
  )
})
