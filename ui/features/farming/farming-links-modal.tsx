import { observer } from 'mobx-react-lite'
import { farmingLink, formatAmount, type FarmingLink, shareLinkUrl } from '../../../core/index.ts'
import { useFarmingState } from '../app-states.ts'
import { useLinkOpener, useUiConfig } from '../../lib/host-contexts.ts'
import { Button } from '../../components/button.tsx'
import { CheckIcon, CopyIcon, ShareIcon } from '../../components/icons.tsx'
import { LinkIcon } from '../../components/link-icon.tsx'
import { Modal } from '../../components/modal.tsx'
import { useCopy } from '../referrals/use-copy.ts'
import { useLastDefined } from '../../hooks/use-last-defined.ts'
import { useT } from '../../i18n/use-t.ts'
import { farmingQueryLink } from '../../lib/links.ts'

function CopyLine({ label, value, testId }: { readonly label: string; readonly value: string; readonly testId: string }) {
  const copy = useCopy()
  const t = useT()
  return (
    <div className="copy-line">
      <span className="copy-line__label">{label}</span>
      <div className="copy-line__box">
        <code className="copy-line__value" data-testid={testId}>
          {value}
        </code>
        <button type="button" className="icon-btn" onClick={() => void copy(value)} aria-label={`${t('common.copy')}: ${label}`} data-testid={`${testId}-copy`}>
          <CopyIcon size={18} />
        </button>
      </div>
    </div>
  )
}

/**
 * A farming link to copy or share: the code, the t.me link and the ?farm_code= link (spec §2: farming
 * links modal). A "for me" link still open can be activated right here: it is for its creator alone.
 */
export const FarmingLinksModal = observer(function FarmingLinksModal({ link, onClose }: { readonly link: FarmingLink | null; readonly onClose: () => void }) {
  const farming = useFarmingState()
  const t = useT()
  const config = useUiConfig()
  const openLink = useLinkOpener()
  const shown = useLastDefined(link)
  const shareUrl = shown ? farmingLink(config, shown.activation_code) : ''
  const activatable = shown !== null && shown.is_for_me && (shown.status ?? 'active') === 'active'
  const activate = () => {
    if (!shown) return
    onClose()
    void farming.activateOwn(shown)
  }
  const share = () => openLink(shareLinkUrl(shareUrl, t('farmingLinks.shareText')))
  return (
    <Modal
      open={link !== null}
      onClose={onClose}
      icon={<LinkIcon size={28} />}
      title={t('farmingLinks.title')}
      testId="farming-links-modal"
      actions={
        activatable ? (
          <>
            <Button variant="secondary" icon={<ShareIcon size={18} />} onClick={share} testId="farming-link-share">
              {t('common.share')}
            </Button>
            <Button icon={<CheckIcon size={18} />} busy={farming.busyIds.has(shown.id)} onClick={activate} testId="farming-link-activate" data-autofocus>
              {t('farmingLinks.activate')}
            </Button>
          </>
        ) : (
          <Button block icon={<ShareIcon size={18} />} onClick={share} testId="farming-link-share">
            {t('common.share')}
          </Button>
        )
      }
    >
      {shown ? (
        <div className="stack">
          <p className="muted num">{t('farmingLinks.amount', { amount: formatAmount(shown.amount), days: shown.days })}</p>
          <CopyLine label={t('farmingLinks.code')} value={shown.activation_code} testId="farming-link-code" />
          <CopyLine label={t('farmingLinks.link')} value={shareUrl} testId="farming-link-url" />
          <CopyLine
            label={t('farmingLinks.queryLink')}
            value={farmingQueryLink(window.location.origin, shown.activation_code)}
            testId="farming-link-query"
          />
        </div>
      ) : null}
    </Modal>
  )
})
