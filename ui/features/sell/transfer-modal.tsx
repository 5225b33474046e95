import { observer } from 'mobx-react-lite'
import type { FormEvent } from 'react'
import { formatAmount } from '../../../core/index.ts'
import { useSellState, useSessionState, useToasts } from '../app-states.ts'
import { Button } from '../../components/button.tsx'
import { type IconProps, Svg } from '../../components/icons.tsx'
import { InputAmount, useAmountField } from '../../components/input-amount.tsx'
import { Modal } from '../../components/modal.tsx'
import { useT } from '../../i18n/use-t.ts'
import { CheckRefusalNote } from './check-refusal.tsx'

/** Also the referral screen's transfer button. */
export const TransferIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 8h14" />
    <path d="m14 4 4 4-4 4" />
    <path d="M20 16H6" />
    <path d="m10 12-4 4 4 4" />
  </Svg>
)

/** Moves referral balance into the main balance (spec §2: transfer modal). */
export const TransferModal = observer(function TransferModal({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) {
  const sell = useSellState()
  const session = useSessionState()
  const toasts = useToasts()
  const t = useT()
  const max = session.user?.referral_balance ?? 0
  const amount = useAmountField(max)
  const close = () => {
    amount.reset()
    sell.clearCheckRefusal()
    onClose()
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    amount.setTouched(true)
    if (amount.value === null || sell.isSaving) return
    const r = await sell.transfer(amount.value, {
      access: t('biometry.accessReason'),
      confirm: t('biometry.transferReason', { amount: formatAmount(amount.value) }),
    })
    if (r) {
      toasts.notify({ tag: 'transferred' })
      close()
    }
  }
  return (
    <Modal open={open} onClose={close} icon={<TransferIcon size={28} />} title={t('transfer.title')} testId="transfer-modal">
      <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
        <p className="muted">{t('transfer.body')}</p>
        <InputAmount field={amount} label={t('amount.label')} max={max} testId="transfer-amount" />
        <CheckRefusalNote what="transfer" />
        <Button type="submit" block busy={sell.isSaving} disabled={amount.value === null} testId="transfer-submit">
          {sell.isSaving ? t('transfer.pending') : t('transfer.submit')}
        </Button>
      </form>
    </Modal>
  )
})
