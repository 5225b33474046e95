import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import type { Mint } from '../../../core/index.ts'
import { useBondsState } from '../app-states.ts'
import { useNavigate } from '../../hooks/navigation.ts'
import { Button } from '../../components/button.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { BondIcon } from '../../components/icons.tsx'
import { RecordRow } from './record-row.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { useT } from '../../i18n/use-t.ts'
import { CancelBondModal } from './cancel-bond-modal.tsx'
import { canCancelMint } from './record-actions.ts'

const MintActions = observer(function MintActions({ mint, onCancel }: { readonly mint: Mint; readonly onCancel: (m: Mint) => void }) {
  const bonds = useBondsState()
  const t = useT()
  const navigate = useNavigate()
  const id = mint.id
  const busy = bonds.bondList.isBusy(mint.id)
  const stakeable = bonds.bondList.stakeableMints.some((m) => m.id === id)
  // The chain has shown the payment: the bond waits for its block, not for the user (no cancel).
  if (bonds.bondList.isPaymentSeen(mint))
    return (
      <span className="status status--seen" role="status" data-testid={`mint-payment-seen-${id}`}>
        {t('mint.paymentSeen')}
      </span>
    )
  if (!canCancelMint(mint) && !stakeable) return null
  return (
    <>
      {canCancelMint(mint) ? (
        <Button variant="secondary" size="sm" busy={busy} onClick={() => onCancel(mint)} testId={`mint-cancel-${id}`}>
          {t('mint.cancel')}
        </Button>
      ) : null}
      {stakeable ? (
        <Button size="sm" disabled={busy} onClick={() => navigate(`/staking/select?mint=${encodeURIComponent(id)}`)} testId={`mint-stake-${id}`}>
          {t('mint.stake')}
        </Button>
      ) : null}
    </>
  )
})

/** The user's bonds with ticking rewards, and their cancel and stake actions. */
export const MintsList = observer(function MintsList() {
  const bonds = useBondsState()
  const t = useT()
  const navigate = useNavigate()
  const [cancelling, setCancelling] = useState<Mint | null>(null)
  const mints = bonds.bondList.visibleMints

  if (mints.length === 0 && bonds.isFetching)
    return (
      <div className="card stack" aria-busy="true">
        <Skeleton height={20} width="40%" />
        <Skeleton height={56} />
      </div>
    )
  if (mints.length === 0)
    return (
      <EmptyState
        icon={<BondIcon size={28} />}
        title={t('dashboard.noBonds')}
        hint={t('dashboard.noBondsHint')}
        testId="mints-empty"
        action={
          <Button onClick={() => navigate('/bond')} testId="mints-empty-bond">
            {t('dashboard.bondCta')}
          </Button>
        }
      />
    )

  return (
    <>
      <ul className="record-list" data-testid="mints-list">
        {mints.map((m) => (
          <RecordRow key={m.id} record={m} kind="mint" actions={<MintActions mint={m} onCancel={setCancelling} />} />
        ))}
      </ul>
      <CancelBondModal mint={cancelling} onClose={() => setCancelling(null)} />
    </>
  )
})
