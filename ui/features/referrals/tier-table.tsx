import { formatAmount, REFERRAL_TIERS } from '../../../core/index.ts'
import { useT } from '../../i18n/use-t.ts'

/** The 8 referral tiers (spec §3) with the user's own highlighted. */
export function TierTable({ currentLevel }: { readonly currentLevel: number | null }) {
  const t = useT()
  return (
    <div className="card card--flush">
      <table className="tier-table" data-testid="tier-table">
        <thead>
          <tr>
            <th scope="col">{t('referral.tierLevel')}</th>
            <th scope="col">{t('referral.tierThreshold')}</th>
            <th scope="col">{t('referral.tierBonus')}</th>
          </tr>
        </thead>
        <tbody>
          {REFERRAL_TIERS.map((tier) => {
            const current = tier.level === currentLevel
            return (
              <tr key={tier.level} className={current ? 'is-current' : undefined} aria-current={current ? 'true' : undefined} data-testid={`tier-${tier.level}`}>
                <td>
                  <span className="tier-level">{tier.level}</span>
                  {current ? <span className="tier-you">{t('referral.currentShort')}</span> : null}
                </td>
                <td className="num" data-testid={`tier-threshold-${tier.level}`}>
                  {formatAmount(tier.threshold)} AXIOM
                </td>
                <td className="num" data-testid={`tier-bonus-${tier.level}`}>
                  {formatAmount(tier.bonus)}%
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
