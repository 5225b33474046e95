import { observer } from 'mobx-react-lite'
import { useEffect } from 'react'
import { formatAmount, shortAddress } from '../../../core/index.ts'
import { useSellState, useToasts } from '../app-states.ts'
import { ConfirmFooter } from '../../components/confirm-footer.tsx'
import { SellIcon } from '../../components/icons.tsx'
import { Modal } from '../../components/modal.tsx'
import { Row } from '../../components/section.tsx'
import { useLastDefined } from '../../hooks/use-last-defined.ts'
import { useT } from '../../i18n/use-t.ts'
import { CheckRefusalNote } from './check-refusal.tsx'

export interface SaleDraft {
  readonly amount: number
  readonly address: string
  readonly fromReferral: boolean
}

/** Confirms a sale before it is sent (spec §2: sell modal). */
export const SellModal = observer(function SellModal({
  draft,
  onClose,
  onSold,
}: {
  readonly draft: SaleDraft | null
  readonly onClose: () => void
  readonly onSold: () => void
}) {
  const sell = useSellState()
  const toasts = useToasts()
  const t = useT()
  const shown = useLastDefined(draft)
  const quote = shown ? sell.quoteFor(shown.amount, shown.address) : null
  useEffect(() => {
    if (shown && !sell.quoteFor(shown.amount, shown.address)) void sell.preview(shown.amount, shown.address)
  }, [sell, shown])
  // A refused check's message belongs to the sheet it was shown in: a sheet opened again starts clean.
  useEffect(() => {
    if (draft === null) sell.clearCheckRefusal()
  }, [sell, draft])
  const confirm = async () => {
    if (!shown) return
    const r = await sell.sell(shown, {
      access: t('biometry.accessReason'),
      confirm: t('biometry.saleReason', { amount: formatAmount(shown.amount) }),
    })
    if (r) {
      toasts.notify({ tag: 'sold' })
      onSold()
    }
  }
  return (
    <Modal
      open={draft !== null}
      onClose={onClose}
      icon={<SellIcon size={28} />}
      title={t('sellModal.title')}
      testId="sell-modal"
      actions={
        <ConfirmFooter
          backLabel={t('common.cancel')}
          onBack={onClose}
          backTestId="sell-cancel"
          confirmLabel={sell.isSaving ? t('sell.selling') : t('sellModal.confirm')}
          onConfirm={() => void confirm()}
          confirmTestId="sell-confirm"
          busy={sell.isSaving}
        />
      }
    >
      {shown ? (
        <div className="summary">
          <Row label={t('sellModal.amount')} value={`${formatAmount(shown.amount)} AXIOM`} strong />
          <Row label={t('sellModal.from')} value={shown.fromReferral ? t('sell.fromReferral') : t('sell.fromMain')} />
          <Row label={t('sellModal.to')} value={<span title={shown.address}>{shortAddress(shown.address.trim())}</span>} />
          {quote ? (
            <>
              <Row label={t('sell.fee')} value={`${formatAmount(quote.fee, 4)} AXIOM`} />
              <Row label={t('sell.net')} value={`${formatAmount(quote.net_amount, 4)} AXIOM`} strong />
              {quote.amount_ton !== undefined ? <Row label={t('sell.tonAmount')} value={t('common.approxTon', { amount: formatAmount(quote.amount_ton, 4) })} /> : null}
            </>
          ) : null}
        </div>
      ) : null}
      <CheckRefusalNote what="sale" />
    </Modal>
  )
})
