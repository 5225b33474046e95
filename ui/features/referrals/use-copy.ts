import { useErrorFeedback, useLaterScreenStates, useToasts } from '../app-states.ts'

/**
 * Copies text to the clipboard (through the referrals view model) and says so; a refusal is an error
 * (toast and haptic). The shell's copy button may be pressed before the referrals view model is made:
 * it is then made first (`current` is there in every later tap, in the tap's own task).
 */
export const useCopy = () => {
  const screens = useLaterScreenStates()
  const toasts = useToasts()
  const errors = useErrorFeedback()
  return async (text: string, what: 'text' | 'referralLink' = 'text'): Promise<boolean> => {
    const { referrals } = screens.current ?? (await screens.load())
    const ok = await referrals.copy(text)
    if (ok) toasts.notify({ tag: 'copied', what })
    else errors.tell({ tag: 'copyFailed' })
    return ok
  }
}
