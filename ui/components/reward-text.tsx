import { observer } from 'mobx-react-lite'
import { formatAmount, type Mint, REWARD_DECIMALS, type Stake } from '../../core/index.ts'
import { useStates } from '../app/contexts.ts'
import { useComputed } from '../hooks/use-computed.ts'

/**
 * A record's reward, ticking every second at the core's 10-decimal precision. It re-renders
 * only when its text changes: pending and completed records never do.
 */
export const RewardText = observer(function RewardText({ record, testId }: { readonly record: Mint | Stake; readonly testId?: string }) {
  const { bonds } = useStates()
  const text = useComputed(() => formatAmount(bonds.rewardOf(record), REWARD_DECIMALS), [bonds, record])
  return (
    <span className="num" data-testid={testId}>
      {text}
    </span>
  )
})
