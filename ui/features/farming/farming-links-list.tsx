import { observer } from 'mobx-react-lite'
import { type FarmingLink, formatAmount, fundingSourceOf } from '../../../core/index.ts'
import { useFarmingState } from '../app-states.ts'
import { Button } from '../../components/button.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { LinkIcon } from '../../components/link-icon.tsx'
import { useLanguage, useT } from '../../i18n/use-t.ts'
import { formatDateTime } from '../../lib/format.ts'

const LinkRow = observer(function LinkRow({ link, onShow }: { readonly link: FarmingLink; readonly onShow: (l: FarmingLink) => void }) {
  const farming = useFarmingState()
  const t = useT()
  const language = useLanguage()
  const id = link.id
  const status = link.status ?? 'active'
  return (
    <li className="farm-link" data-testid={`farming-link-${id}`}>
      <div className="farm-link__head">
        <span className="farm-link__title num">{t('farmingLinks.amount', { amount: formatAmount(link.amount), days: link.days })}</span>
        <span className={`status status--${status}`} data-testid={`farming-link-status-${id}`}>
          {t(`farming.status.${status}`)}
        </span>
      </div>
      <div className="farm-link__meta">
        <span>{t('farming.created', { date: formatDateTime(link.created_at, language) })}</span>
        <span className="num">{t('farming.used', { used: link.used_activations ?? 0, total: link.count_activations })}</span>
        <span>
          {link.is_multilink ? t('farming.multi') : t('farming.single')} · {link.is_for_me ? t('farming.forMe') : t('farming.toShare')}
        </span>
        <span data-testid={`farming-link-source-${id}`}>{t(`farming.source.${fundingSourceOf(link)}`)}</span>
      </div>
      <div className="farm-link__actions">
        <code className="farm-link__code">{link.activation_code}</code>
        <Button variant="ghost" size="sm" icon={<LinkIcon size={16} />} onClick={() => onShow(link)} testId={`farming-link-show-${id}`}>
          {t('farming.show')}
        </Button>
        {status === 'active' ? (
          <Button variant="secondary" size="sm" busy={farming.busyIds.has(id)} onClick={() => void farming.cancel(link.id)} testId={`farming-link-cancel-${id}`}>
            {t('farming.cancel')}
          </Button>
        ) : null}
      </div>
    </li>
  )
})

/** The user's farming links: created_at, status, activations used, cancel and share. */
export const FarmingLinksList = observer(function FarmingLinksList({ onShow }: { readonly onShow: (l: FarmingLink) => void }) {
  const farming = useFarmingState()
  const t = useT()
  if (farming.links.length === 0)
    return <EmptyState icon={<LinkIcon size={28} />} title={t('farming.noLinks')} hint={t('farming.noLinksHint')} testId="farming-links-empty" />
  return (
    <ul className="farm-links" data-testid="farming-links-list">
      {farming.links.map((l) => (
        <LinkRow key={l.id} link={l} onShow={onShow} />
      ))}
    </ul>
  )
})
