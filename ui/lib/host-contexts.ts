import { createContext, useContext } from 'react'
import type { MiniAppAddress } from '../../core/index.ts'

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

export const useUiConfig = (): UiConfig => useContext(UiConfigContext)
export const useLinkOpener = (): LinkOpener => useContext(LinkOpenerContext)
