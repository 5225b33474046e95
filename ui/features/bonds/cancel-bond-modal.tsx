import { observer } from 'mobx-react-lite'
import { formatAmount, type Mint } from '../../../core/index.ts'
import { useStates } from '../../app/contexts.ts'
import { Button } from '../../components/button.tsx'
import { Modal } from '../../components/modal.tsx'
import { useLastDefined } from '../../hooks/use-last-defined.ts'
import { useT } from '../../i18n/use-t.ts'

/** Confirms cancelling a bond (spec §2: cancel bond modal). */
export const CancelBondModal = observer(function CancelBondModal({ mint, onClose }: { readonly mint: Mint | null; readonly onClose: () => void }) {
  const { bonds } = useStates()
  const t = useT()
  const shown = useLastDefined(mint)
  const busy = shown ? bonds.isBusy(shown.id) : false
  const confirm = async () => {
    if (!shown) return
    const ok = await bonds.cancel(shown.id)
    if (ok) onClose()
  }
  return (
    <Modal
      open={mint !== null}
      onClose={onClose}
      title={t('cancelBond.title')}
      testId="cancel-bond-modal"
      actions={
        <>
          <Button variant="secondary" onClick={onClose} testId="cancel-bond-keep">
            {t('cancelBond.keep')}
          </Button>
          <Button variant="danger" busy={busy} onClick={() => void confirm()} testId="cancel-bond-confirm">
            {t('cancelBond.confirm')}
          </Button>
        </>
      }
    >
      {shown ? (
        <p>
          {t('cancelBond.body', {
            id: shown.id,
            amount: formatAmount(shown.total_amount || shown.amount_token),
            days: shown.tariff_days,
          })}
        </p>
      ) : null}
    </Modal>
  )
})
