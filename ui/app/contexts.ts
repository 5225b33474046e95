import { createContext, useContext } from 'react'
import type { MiniAppAddress } from '../../core/index.ts'
import type { BondsState } from '../features/bonds/bonds-state.ts'
import type { FarmingState } from '../features/farming/farming-state.ts'
import type { HistoryState } from '../features/history/history-state.ts'
import type { MarketState } from '../features/market/market-state.ts'
import type { ReferralsState } from '../features/referrals/referrals-state.ts'
import type { SellState } from '../features/sell/sell-state.ts'
import type { TasksState } from '../features/tasks/tasks-state.ts'
import type { WalletState } from '../features/wallet/wallet-state.ts'
import type { AppState, AppStates } from '../state/app-state.ts'
import type { ErrorFeedback } from '../state/error-feedback.ts'
import type { SessionState } from '../state/session-state.ts'
import type { ToastQueue } from '../state/toast-queue.ts'

/** What screens need to know about the product's deployment. The entry may provide it. */
export interface UiConfig extends MiniAppAddress {
  /** The product's bot, for the referral and farming deep links. */
  readonly botUsername: string
  /** The mini app's short name on the bot: the links open `t.me/<bot>/<app>?startapp=…`. */
  readonly appShortName: string
  /** The community the user must join (spec §2 blocking modal). */
  readonly communityUrl: string
}

export const DEFAULT_UI_CONFIG: UiConfig = {
  botUsername: 'axiom_dev_bot',
  appShortName: 'app',
  communityUrl: 'https://t.me/axiom_community',
}

export const UiConfigContext = createContext<UiConfig>(DEFAULT_UI_CONFIG)

/** The host's back button (Telegram's). The entry binds it to the Platform. */
export interface BackButton {
  show(onPress: () => void): void
  hide(): void
}

export const BackButtonContext = createContext<BackButton>({ show: () => {}, hide: () => {} })

/** Opens an external or platform link. The entry binds it to the Platform (openLink / openPlatformLink). */
export type LinkOpener = (url: string) => void

export const defaultLinkOpener: LinkOpener = (url) => {
  window.open(url, '_blank', 'noopener,noreferrer')
}

export const LinkOpenerContext = createContext<LinkOpener>(defaultLinkOpener)

/** The Telegram user's language_code (from `platform.launch().languageCode`). */
export const LanguageContext = createContext<string>('en')

export const AppContext = createContext<AppState | null>(null)

const useAppStates = (): AppStates => {
  const app = useContext(AppContext)
  if (!app) throw new Error('AppContext is missing: render inside <AppRoot app={…} />')
  return app.s
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
export const useFirstFiguresStates = (): Pick<AppStates, 'session' | 'bonds' | 'market'> => useAppStates()
/** How the UI tells an error, with the error haptic. */
export const useErrorFeedback = (): ErrorFeedback => useAppStates().errors
export const useUiConfig = (): UiConfig => useContext(UiConfigContext)
export const useLinkOpener = (): LinkOpener => useContext(LinkOpenerContext)
