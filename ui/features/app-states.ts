import { createContext, type ReactNode, use, useContext } from 'react'
import type { ErrorFeedback } from '../state/error-feedback.ts'
import type { Later } from '../state/later.ts'
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
 * The view models of the screens beyond the dashboard, which its first paint does not show: their
 * code is a chunk of its own (ui/features/screen-states.ts), made once the first screen has painted
 * (composition-root.ts) or when a screen or the shell first needs them.
 */
export interface ScreenStates {
  readonly farming: FarmingState
  readonly tasks: TasksState
  readonly referrals: ReferralsState
  readonly history: HistoryState
  readonly sell: SellState
}

/**
 * The view models the screens read, one per feature plus the shared ones. The app (ui/app/app-state.ts)
 * makes them and provides them here; a feature asks for the ones it shows through its hook below, so
 * no feature reaches up into ui/app/.
 */
export interface AppStates {
  readonly session: SessionState
  readonly maintenance: MaintenanceState
  readonly bonds: BondsState
  readonly market: MarketState
  /** The other screens' view models, made after the first paint (`ScreenStates`). */
  readonly screens: Later<ScreenStates>
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

/**
 * The other screens' view models, for a component under `ScreenStatesGate` (each route but the
 * dashboard's renders there, so they are made before it renders).
 */
const useScreenStates = (): ScreenStates => {
  const screens = useAppStates().screens.current
  if (!screens) throw new Error('The screens’ view models are not made yet: render this inside <ScreenStatesGate>')
  return screens
}

/** The other screens' view models as they come: null until made (the shell's badges, the farm code's sheet); observe it. */
export const useLaterScreenStates = (): Later<ScreenStates> => useAppStates().screens

/**
 * Holds its children back (suspends, in the route's loading fallback) until the other screens' view
 * models are made; `preload` starts what the children will load meanwhile (a lazy screen's chunk).
 */
export function ScreenStatesGate({ children, preload }: { readonly children: ReactNode; readonly preload?: () => void }) {
  const screens = useAppStates().screens
  if (!screens.current) {
    preload?.()
    use(screens.load())
  }
  return children
}

// One hook per view model: a component asks for the ones it shows, not for all of them.
export const useSessionState = (): SessionState => useAppStates().session
export const useBondsState = (): BondsState => useAppStates().bonds
export const useFarmingState = (): FarmingState => useScreenStates().farming
export const useTasksState = (): TasksState => useScreenStates().tasks
export const useReferralsState = (): ReferralsState => useScreenStates().referrals
export const useMarketState = (): MarketState => useAppStates().market
export const useHistoryState = (): HistoryState => useScreenStates().history
export const useSellState = (): SellState => useScreenStates().sell
export const useWalletState = (): WalletState => useAppStates().wallet
export const useToasts = (): ToastQueue => useAppStates().toasts
/** The view models the dashboard's first figures wait for, together (ui/state/first-figures.ts). */
export const useFirstFiguresStates = (): Pick<AppStates, 'session' | 'bonds' | 'market' | 'kept'> => useAppStates()
/** How the UI tells an error, with the error haptic. */
export const useErrorFeedback = (): ErrorFeedback => useAppStates().errors
