import { observer } from 'mobx-react-lite'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { usePathname } from '../hooks/navigation.ts'
import { referralLink } from '../../core/index.ts'
import { useLaterScreenStates, useSessionState } from '../features/app-states.ts'
import { useUiConfig } from '../lib/host-contexts.ts'
import { useCopy } from '../features/referrals/use-copy.ts'
import { useT } from '../i18n/use-t.ts'
import { CopyIcon, ShareIcon } from '../components/icons.tsx'
import { TokenIcon } from '../components/token-icon.tsx'

/** On the referral route: 'Invite Friends' and the copy-link button (spec §2). */
const ReferralActions = observer(function ReferralActions() {
  const screens = useLaterScreenStates()
  const session = useSessionState()
  const config = useUiConfig()
  const copy = useCopy()
  const t = useT()
  const refCode = session.user?.ref_code
  if (!refCode) return null
  return (
    <div className="top-bar__actions">
      <button type="button" className="pill-btn" onClick={() => screens.with(({ referrals }) => void referrals.invite(config, refCode))} data-testid="invite-friends">
        <ShareIcon size={16} />
        <span>{t('nav.invite')}</span>
      </button>
      <button
        type="button"
        className="icon-btn icon-btn--filled"
        onClick={() => void copy(referralLink(config, refCode), 'referralLink')}
        aria-label={t('nav.copyLink')}
        data-testid="copy-referral-link"
      >
        <CopyIcon size={18} />
      </button>
    </div>
  )
})

/**
 * The bar over every screen: the AXIOM mark (named by its visible name, it leads to the dashboard),
 * then at its end `end` (the layout's fullscreen toggle, which arrives after the first paint: first
 * in the group, so nothing after it moves) and the referral actions.
 */
export function TopBar({ end }: { readonly end?: ReactNode }) {
  const pathname = usePathname()
  const t = useT()
  const referral = pathname === '/referral' || pathname.startsWith('/referral/')
  return (
    <header className={`top-bar${referral ? ' top-bar--actions' : ''}`}>
      <Link to="/" className="brand" data-testid="brand">
        <TokenIcon size={30} />
        <span className="brand__name">{t('app.name')}</span>
      </Link>
      <div className="top-bar__end">
        {end}
        {referral ? <ReferralActions /> : null}
      </div>
    </header>
  )
}
