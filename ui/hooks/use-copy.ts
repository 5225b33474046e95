import { LINK_COPIED_TOAST_MS } from '../../core/index.ts'
import { useStates } from '../app/contexts.ts'
import { type MessageKey, useT } from '../i18n/use-t.ts'

/** Copies text to the clipboard (through the referrals view model's copier) and says so in a toast. */
export const useCopy = () => {
  const { referrals, toasts } = useStates()
  const t = useT()
  return async (text: string, successKey: MessageKey = 'common.copied'): Promise<boolean> => {
    const ok = await referrals.copy(text)
    toasts.notify(
      ok
        ? { kind: 'success', text: t(successKey), durationMs: LINK_COPIED_TOAST_MS }
        : { kind: 'error', text: t('common.copyFailed') },
    )
    return ok
  }
}
