import { reaction, untracked } from 'mobx'
import { useLayoutEffect, useRef } from 'react'
import { formatAmount, type Mint, REWARD_DECIMALS, type Stake } from '../../../core/index.ts'
import { useBondsState } from '../app-states.ts'
import { useWhileVisible } from '../../hooks/use-while-visible.ts'

/**
 * A record's reward, ticking every second at the core's 10-decimal precision. The text is written
 * straight into the DOM by a MobX reaction, only when it changes and only while the row is on
 * screen: a tick costs one string per visible ticking row and no React render at all. React owns
 * the span, never its text.
 */
export function RewardText({ record, testId }: { readonly record: Mint | Stake; readonly testId?: string }) {
  const bonds = useBondsState()
  const ref = useRef<HTMLSpanElement>(null)
  const text = () => formatAmount(bonds.rewardOf(record), REWARD_DECIMALS)
  const write = (value: string) => {
    if (ref.current) ref.current.textContent = value
  }
  useLayoutEffect(() => write(untracked(text)), [bonds, record])
  useWhileVisible(ref, () => reaction(text, write, { fireImmediately: true }), [bonds, record])
  return <span ref={ref} className="num" data-precision="reward" data-testid={testId} />
}
