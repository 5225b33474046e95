import { observer } from 'mobx-react-lite'
import { useSellState } from '../app-states.ts'
import { useT } from '../../i18n/use-t.ts'
import type { CheckRefusal } from './sell-state.ts'

const MESSAGE = {
  sale: { failed: 'biometry.saleFailed', cancelled: 'biometry.saleCancelled' },
  transfer: { failed: 'biometry.transferFailed', cancelled: 'biometry.transferCancelled' },
} as const satisfies Record<CheckRefusal['what'], Record<CheckRefusal['why'], string>>

/**
 * Why a sale or a transfer was not sent: the device's biometric check did not pass. Said in place,
 * in the sheet the user confirmed from, beside what they typed (kept); no error toast, no code.
 */
export const CheckRefusalNote = observer(function CheckRefusalNote({ what }: { readonly what: CheckRefusal['what'] }) {
  const sell = useSellState()
  const t = useT()
  const refusal = sell.checkRefusal
  if (!refusal || refusal.what !== what) return null
  return (
    <p className="field__error" role="alert" data-testid="money-check-refused">
      {t(MESSAGE[what][refusal.why])}
    </p>
  )
})
