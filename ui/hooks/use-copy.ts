import { LINK_COPIED_TOAST_MS } from '../../core/index.ts'
import { useStates } from '../app/contexts.ts'
import { type MessageKey, useT } from '../i18n/use-t.ts'

/** Copies text to the clipboard (through the referrals view model's copier) and says so; a refusal is an error (toast and haptic). */
export const useCopy = () => {
  const { referrals, toasts, errors } = useStates()
  const t = useT()
  return async (text: string, successKey: MessageKey = 'common.copied'): Promise<boolean> => {
    const ok = await referrals.copy(text)
    if (ok) toasts.notify({ kind: 'success', text: t(successKey), durationMs: LINK_COPIED_TOAST_MS })
    else errors.toast(t('common.copyFailed'))
    return ok
  }
}
