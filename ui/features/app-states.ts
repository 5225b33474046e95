import { createContext, useContext } from 'react'
import type { ErrorFeedback } from '../state/error-feedback.ts'
import type { KeptDashboard } from '../state/first-figures.ts'
import type { SecondTicker } from '../state/second-ticker.ts'
import type { SessionState } from '../state/session-state.ts'
import type { ToastQueue } from '../state/toast-queue.ts'
import type { BondsState } from './bonds/bonds-state.ts'
import type { FarmingState } from './farming/farming-state.ts'
import type { HistoryState } from './history/history-state.ts'
import type { MaintenanceState } from './maintenance/maintenance-state.ts'
import type { MarketState } from './market/market-state.ts'
import type { ReferralsState } from './referrals/referrals-state.ts'
import type { SellState } from './sell/sell-state.ts'
import type { TasksState } from './tasks/tasks-state.ts'
import type { WalletState } from './wallet/wallet-state.ts'

/**
 * The view models the screens read, one per feature plus the shared ones. The app (ui/app/app-state.ts)
 * makes them and provides them here; a feature asks for the ones it shows through its hook below, so
 * no feature reaches up into ui/app/.
 */
export interface AppStates {
  readonly session: SessionState
  readonly maintenance: MaintenanceState
  readonly bonds: BondsState
  readonly farming: FarmingState
  readonly tasks: TasksState
  readonly referrals: ReferralsState
  readonly market: MarketState
  readonly history: HistoryState
  readonly sell: SellState
  readonly toasts: ToastQueue
  readonly ticker: SecondTicker
  readonly wallet: WalletState
  /** How every error the UI shows reaches the user, with the error haptic. */
  readonly errors: ErrorFeedback
  /** The last dashboard kept on the device, painted until the fresh figures are in; a front end without one leaves it out. */
  readonly kept?: KeptDashboard
}

export const AppStatesContext = createContext<AppStates | null>(null)

const useAppStates = (): AppStates => {
  const states = useContext(AppStatesContext)
  if (!states) throw new Error('AppStatesContext is missing: render inside <AppRoot app={…} />')
  return states
}

// One hook per view model: a component asks for the ones it shows, not for all of them.
export const useSessionState = (): SessionState => useAppStates().session
export const useBondsState = (): BondsState => useAppStates().bonds
export const useFarmingState = (): FarmingState => useAppStates().farming
export const useTasksState = (): TasksState => useAppStates().tasks
export const useReferralsState = (): ReferralsState => useAppStates().referrals
export const useMarketState = (): MarketState => useAppStates().market
export const useHistoryState = (): HistoryState => useAppStates().history
export const useSellState = (): SellState => useAppStates().sell
export const useWalletState = (): WalletState => useAppStates().wallet
export const useToasts = (): ToastQueue => useAppStates().toasts
/** The view models the dashboard's first figures wait for, together (ui/state/first-figures.ts). */
export const useFirstFiguresStates = (): Pick<AppStates, 'session' | 'bonds' | 'market' | 'kept'> => useAppStates()
/** How the UI tells an error, with the error haptic. */
export const useErrorFeedback = (): ErrorFeedback => useAppStates().errors
