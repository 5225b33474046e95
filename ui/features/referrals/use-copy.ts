import { useErrorFeedback, useReferralsState, useToasts } from '../app-states.ts'

/** Copies text to the clipboard (through the referrals view model) and says so; a refusal is an error (toast and haptic). */
export const useCopy = () => {
  const referrals = useReferralsState()
  const toasts = useToasts()
  const errors = useErrorFeedback()
  return async (text: string, what: 'text' | 'referralLink' = 'text'): Promise<boolean> => {
    const ok = await referrals.copy(text)
    if (ok) toasts.notify({ tag: 'copied', what })
    else errors.tell({ tag: 'copyFailed' })
    return ok
  }
}
