import type { LiveEvent } from '../../core/index.ts'
import type { BondsState } from '../features/bonds/bonds-state.ts'
import type { MarketState } from '../features/market/market-state.ts'
import type { SellState } from '../features/sell/sell-state.ts'
import type { Later } from '../state/later.ts'
import type { SessionState } from '../state/session-state.ts'

/** The view models live events change. */
export interface LiveEventTargets {
  readonly session: SessionState
  readonly bonds: BondsState
  readonly market: MarketState
  /** The sell view model is made after the first paint: a payout's word before that waits for it, in order. */
  readonly screens: Pick<Later<{ readonly sell: SellState }>, 'with'>
}

/** Routes a live event to the view model it changes. */
export const routeLiveEvent = ({ session, bonds, market, screens }: LiveEventTargets, event: LiveEvent): void => {
  switch (event.event) {
    case 'user:balance':
      return session.applyBalance(event.data)
    case 'global:collective_bonus':
      return session.applyCollectiveBonus(event.data.collective_bonus)
    case 'user:mint':
      return bonds.applyLiveMint(event.data)
    case 'user:staking':
      return bonds.applyLiveStake(event.data)
    case 'price_update':
      return market.applyPrice(event.data)
    case 'current_candle':
      return market.applyCandle(event.data)
    // The reference backend's own event: a bond's payment seen on the chain before it is credited,
    // or a sale's payout sent, then paid.
    case 'chain:payment':
      if (event.data.kind !== 'sale') return bonds.bondList.applyPaymentSignal(event.data)
      const signal = event.data
      return screens.with(({ sell }) => sell.applyPayoutSignal(signal))
  }
}
