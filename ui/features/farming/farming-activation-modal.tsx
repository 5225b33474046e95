import { observer } from 'mobx-react-lite'
import { formatAmount } from '../../../core/index.ts'
import { useFarmingState } from '../app-states.ts'
import { Button } from '../../components/button.tsx'
import { AlertIcon, CheckIcon } from '../../components/icons.tsx'
import { Modal } from '../../components/modal.tsx'
import { TokenIcon } from '../../components/token-icon.tsx'
import { useLastDefined } from '../../hooks/use-last-defined.ts'
import { serverText } from '../../i18n/server-text.ts'
import { useT } from '../../i18n/use-t.ts'

/** The outcome of a farm code (spec §4): ACTIVE, REACHED or REVOKED, until dismissed. */
export const FarmingActivationModal = observer(function FarmingActivationModal() {
  const farming = useFarmingState()
  const t = useT()
  const shown = useLastDefined(farming.activation)
  const close = () => farming.dismissActivation()
  const details = shown?.mint_details ?? null

  const title =
    shown?.status === 'ACTIVE'
      ? t('activation.active', { n: details?.tariff_days ?? 0 })
      : shown?.status === 'REVOKED'
        ? t('activation.revoked')
        : t('activation.reached')

  return (
    <Modal
      open={farming.activation !== null}
      onClose={close}
      title={<span data-testid="activation-title">{title}</span>}
      icon={shown?.status === 'ACTIVE' ? <TokenIcon size={48} /> : <AlertIcon size={30} />}
      testId="farming-activation-modal"
      actions={
        <Button block onClick={close} testId="activation-close" icon={shown?.status === 'ACTIVE' ? <CheckIcon size={18} /> : undefined}>
          {t('common.close')}
        </Button>
      }
    >
      {shown?.status === 'ACTIVE' ? (
        <div className="activation" data-testid="activation-active">
          {shown.message ? (
            <p className="activation__message" data-testid="activation-message">
              {serverText(t, shown.message_key, shown.message_params, shown.message)}
            </p>
          ) : null}
          {details ? (
            <>
              <p className="activation__amount num" data-testid="activation-amount">
                {formatAmount(details.amount_token)} AXIOM
              </p>
              <p className="activation__ton num" data-testid="activation-ton">
                {t('common.approxTon', { amount: formatAmount(details.amount_ton, 4) })}
              </p>
            </>
          ) : null}
        </div>
      ) : shown?.status === 'REACHED' ? (
        <div className="activation" data-testid="activation-reached">
          {/* The status in words (spec §4), in the user's language: not the wire's REACHED, nor the backend's English message. */}
          <p className="status-pill" data-testid="activation-status">
            {t('activation.reachedStatus')}
          </p>
        </div>
      ) : shown?.status === 'REVOKED' ? (
        <div className="activation" data-testid="activation-revoked">
          <p>{t('activation.revokedBody')}</p>
        </div>
      ) : null}
    </Modal>
  )
})
