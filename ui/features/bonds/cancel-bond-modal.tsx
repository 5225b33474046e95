import { observer } from 'mobx-react-lite'
import { formatAmount, type Mint, REWARD_DECIMALS, shownNumber } from '../../../core/index.ts'
import { useBondsState } from '../app-states.ts'
import { ConfirmFooter } from '../../components/confirm-footer.tsx'
import { Modal } from '../../components/modal.tsx'
import { Row } from '../../components/section.tsx'
import { useLastDefined } from '../../hooks/use-last-defined.ts'
import { useT } from '../../i18n/use-t.ts'

/** What cancelling costs, worked out by the backend's rule (core cancelCost) and read at the ticker's second. */
const CancelCostRows = observer(function CancelCostRows({ mint }: { readonly mint: Mint }) {
  const bonds = useBondsState()
  const t = useT()
  if (mint.status !== 'active') return <p data-testid="cancel-bond-unpaid">{t('cancelBond.unpaid')}</p>
  const cost = bonds.bondList.cancelCostOf(mint)
  return (
    <div className="summary">
      <Row label={t('cancelBond.refund')} value={<span data-testid="cancel-bond-refund">{formatAmount(cost.refund, 4)} AXIOM</span>} strong />
      <Row label={t('cancelBond.penalty')} value={<span data-testid="cancel-bond-penalty">−{formatAmount(cost.penalty, 4)} AXIOM</span>} />
      <Row
        label={t('cancelBond.rewardGivenUp')}
        value={
          <span data-testid="cancel-bond-reward" data-precision="reward" className="num">
            {formatAmount(cost.rewardGivenUp, REWARD_DECIMALS)} AXIOM
          </span>
        }
      />
    </div>
  )
})

/** Confirms cancelling a bond (spec §2: cancel bond modal), saying first what it returns and costs. */
export const CancelBondModal = observer(function CancelBondModal({ mint, onClose }: { readonly mint: Mint | null; readonly onClose: () => void }) {
  const bonds = useBondsState()
  const t = useT()
  const shown = useLastDefined(mint)
  const busy = shown ? bonds.bondList.isBusy(shown.id) : false
  const confirm = async () => {
    if (!shown) return
    const ok = await bonds.bondList.cancel(shown.id)
    if (ok) onClose()
  }
  return (
    <Modal
      open={mint !== null}
      onClose={onClose}
      title={t('cancelBond.title')}
      testId="cancel-bond-modal"
      actions={
        <ConfirmFooter
          backLabel={t('cancelBond.keep')}
          onBack={onClose}
          backTestId="cancel-bond-keep"
          confirmLabel={t('cancelBond.confirm')}
          onConfirm={() => void confirm()}
          confirmTestId="cancel-bond-confirm"
          busy={busy}
          danger
        />
      }
    >
      {shown ? (
        <>
          <p>
            {t('cancelBond.body', {
              id: shownNumber(shown),
              amount: formatAmount(shown.total_amount || shown.amount_token),
              days: shown.tariff_days,
            })}
          </p>
          <CancelCostRows mint={shown} />
        </>
      ) : null}
    </Modal>
  )
})
