import { PLATFORM_SHORT_LINK_HOST } from './constants.ts'
import { farmStartParam } from './start-param.ts'

/** Where the mini app lives on the platform: its bot, and the app's short name given to the bot's father. */
export interface MiniAppAddress {
  readonly botUsername: string
  readonly appShortName: string
}

/**
 * The mini app's direct link, `https://t.me/<bot>/<app>`, with `?startapp=<param>` when given: it
 * opens the app itself, and the platform hands the parameter to it as the start parameter. (A
 * `t.me/<bot>?start=` link opens the bot's chat instead, and the parameter goes to the bot.)
 */
export const miniAppLink = (app: MiniAppAddress, startParam?: string): string => {
  const base = `https://${PLATFORM_SHORT_LINK_HOST}/${app.botUsername}/${app.appShortName}`
  return startParam ? `${base}?startapp=${encodeURIComponent(startParam)}` : base
}

/** The referral deep link (spec §9): the mini app, started with the user's ref_code. */
export const referralLink = (app: MiniAppAddress, refCode: string): string => miniAppLink(app, refCode)

/** A farming link to share: the mini app, started with `farm_<code>`. */
export const farmingLink = (app: MiniAppAddress, code: string): string => miniAppLink(app, farmStartParam(code))
