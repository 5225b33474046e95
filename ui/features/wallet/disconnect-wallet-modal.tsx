import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { useWalletState } from '../app-states.ts'
import { ConfirmFooter } from '../../components/confirm-footer.tsx'
import { WalletIcon } from '../../components/icons.tsx'
import { Modal } from '../../components/modal.tsx'
import { useT } from '../../i18n/use-t.ts'

/** Confirms disconnecting the TON wallet (spec §2: disconnect wallet modal). */
export const DisconnectWalletModal = observer(function DisconnectWalletModal({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) {
  const wallet = useWalletState()
  const t = useT()
  const [busy, setBusy] = useState(false)
  const disconnect = async () => {
    setBusy(true)
    await wallet.disconnect()
    setBusy(false)
    onClose()
  }
  return (
    <Modal
      open={open}
      onClose={onClose}
      icon={<WalletIcon size={28} />}
      title={t('wallet.disconnectTitle')}
      testId="disconnect-wallet-modal"
      actions={
        <ConfirmFooter
          backLabel={t('common.cancel')}
          onBack={onClose}
          backTestId="disconnect-cancel"
          confirmLabel={t('wallet.disconnect')}
          onConfirm={() => void disconnect()}
          confirmTestId="disconnect-confirm"
          busy={busy}
          danger
        />
      }
    >
      <p>{t('wallet.disconnectBody', { address: wallet.shortAddress ?? '' })}</p>
    </Modal>
  )
})
