import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { useWalletState } from '../app-states.ts'
import { WalletIcon } from '../../components/icons.tsx'
import { useT } from '../../i18n/use-t.ts'
import { DisconnectWalletModal } from './disconnect-wallet-modal.tsx'

/** The connected wallet as 'UQAb…xY12'; pressing it offers to disconnect. */
export const WalletChip = observer(function WalletChip() {
  const wallet = useWalletState()
  const t = useT()
  const [open, setOpen] = useState(false)
  if (!wallet.shortAddress) return null
  return (
    <>
      <button
        type="button"
        className="wallet-chip"
        onClick={() => setOpen(true)}
        aria-label={t('wallet.label', { address: wallet.shortAddress })}
        data-testid="wallet-chip"
      >
        <WalletIcon size={16} />
        <span className="num">{wallet.shortAddress}</span>
      </button>
      <DisconnectWalletModal open={open} onClose={() => setOpen(false)} />
    </>
  )
})
