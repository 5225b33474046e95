import { autorun } from 'mobx'
import { observer } from 'mobx-react-lite'
import { use, useEffect, useId, type SVGProps } from 'react'
import { Button } from '../../components/button.tsx'
import type { Translate } from '../../i18n/use-t.ts'
import '../../styles/platform.css'
import { usePlatformFeatures } from './platform-features-context.ts'
import type { PlatformFeaturesState } from './platform-features-state.ts'

/**
 * The platform features on screen, loaded after the first paint (ui/app/layout.tsx): the insets and
 * the reduced-effects class on <html>, the fullscreen toggle (in the top bar), its refusal's message,
 * and the home-screen offer. The layout hands them its translator: this chunk importing the
 * catalogues' module itself made the bundler move part of the entry into a chunk the entry then
 * waited for.
 */

/** The layout's translator (useT). */
export interface Texts {
  readonly t: Translate
}

/** The view model, once made (the component suspends until then); null without one. */
const usePlatformState = (): PlatformFeaturesState | null => {
  const loading = usePlatformFeatures()
  return loading ? use(loading) : null
}

const SIDES = ['top', 'bottom', 'left', 'right'] as const

/**
 * Writes the insets as CSS variables (ui/styles/base.css sums them into --safe-* and --content-*)
 * and the state classes on <html>, now and on every change: an inset that arrives after the first
 * paint, or with fullscreen, moves the layout.
 */
export const applyToDocument = (state: PlatformFeaturesState, root: HTMLElement = document.documentElement): (() => void) =>
  autorun(() => {
    const { safeArea, contentSafeArea } = state.insets
    for (const side of SIDES) {
      root.style.setProperty(`--platform-safe-${side}`, `${safeArea[side]}px`)
      root.style.setProperty(`--platform-content-${side}`, `${contentSafeArea[side]}px`)
    }
    root.classList.toggle('reduced-effects', state.reducedEffects)
    root.classList.toggle('is-fullscreen', state.fullscreen)
  })

const Icon = ({ children, ...rest }: SVGProps<SVGSVGElement>) => (
  <svg width={22} height={22} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.9} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...rest}>
    {children}
  </svg>
)

/** Four corners pointing out: enter fullscreen. */
const ExpandIcon = () => (
  <Icon>
    <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
  </Icon>
)

/** Four corners pointing in: leave fullscreen. */
const CollapseIcon = () => (
  <Icon>
    <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />
  </Icon>
)

/** The top bar's fullscreen switch, on clients that have fullscreen (Bot API 8.0+). */
export const FullscreenToggle = observer(function FullscreenToggle({ t }: Texts) {
  const state = usePlatformState()
  if (!state?.fullscreenSupported) return null
  const on = state.fullscreenOn
  return (
    <button
      type="button"
      className={`icon-btn fullscreen-toggle${on ? ' icon-btn--filled' : ''}`}
      aria-label={t('platform.fullscreen')}
      aria-pressed={on}
      onClick={() => state.toggleFullscreen()}
      data-testid="fullscreen-toggle"
    >
      {on ? <CollapseIcon /> : <ExpandIcon />}
    </button>
  )
})

const FullscreenFailed = observer(function FullscreenFailed({ state, t }: Texts & { readonly state: PlatformFeaturesState }) {
  return (
    <div className="platform-note" role="status">
      {state.fullscreenFailed ? (
        <p className="platform-note__text" data-testid="fullscreen-failed">
          {t('platform.fullscreenFailed')}
        </p>
      ) : null}
    </div>
  )
})

const HomeScreenOffer = observer(function HomeScreenOffer({ state, t }: Texts & { readonly state: PlatformFeaturesState }) {
  const titleId = useId()
  if (!state.homeScreenOffered) return null
  return (
    <section className="home-offer" role="region" aria-labelledby={titleId} data-testid="home-screen-offer">
      <div className="home-offer__text">
        <h2 className="home-offer__title" id={titleId}>
          {t('platform.homeScreen.title')}
        </h2>
        <p className="home-offer__body">{t('platform.homeScreen.body')}</p>
      </div>
      <div className="home-offer__actions">
        <Button variant="ghost" size="sm" onClick={() => state.declineHomeScreen()} testId="home-screen-not-now">
          {t('platform.homeScreen.notNow')}
        </Button>
        <Button size="sm" onClick={() => void state.addToHomeScreen()} testId="home-screen-add">
          {t('platform.homeScreen.add')}
        </Button>
      </div>
    </section>
  )
})

/** The features' effects on the page and the refusal's message. */
export function PlatformLayer({ t }: Texts) {
  const state = usePlatformState()
  useEffect(() => (state ? applyToDocument(state) : undefined), [state])
  if (!state) return null
  return <FullscreenFailed state={state} t={t} />
}

/**
 * The home-screen offer, at the end of the screen's content (above the tabs, in the page's flow):
 * it covers nothing the user came for, and scrolls with the page.
 */
export function HomeScreenOfferSlot({ t }: Texts) {
  const state = usePlatformState()
  return state ? <HomeScreenOffer state={state} t={t} /> : null
}
