/**
 * The browser entry. The page already shows the loader (index.html); the app boots in steps, each
 * in its own task rather than one long one (a long task holds the page's input and paint):
 * 0. this entry reads Telegram's launch parameters from the URL and starts the maintenance check
 *    and, for a returning user (an auth_token cookie), `GET /user/me`, while the rest downloads
 *    (adapters/browser/early-boot.ts; the core is handed those answers when it asks for them);
 * 1. once the loader has painted, effect, then the rest of what the composition root imports, then the
 *    composition root are evaluated, each in a task of its own (adapters, core, view models); in the next tasks it builds the app
 *    (the use cases, then the view models a few at a time), and in the one after it starts it: the
 *    maintenance check, then sign-in; once signed in, the lists and sockets one task at a time;
 * 2. `render-app.tsx` (React and the screens) is evaluated while those requests are out, and renders.
 * The user's language's message catalogue (English's too) loads from the entry, beside step 1, and is in place before 2.
 * The Telegram SDK and the wallet widget load after the first screen has painted.
 * A step that cannot load (its download failed) shows the failed screen with "Try again".
 */
// The page's own styles: the loader in index.html is drawn with them before any step has run.
import './styles/base.css'
import './styles/components.css'
// And the app's shared styles (the layout, the dashboard, forms and sheets), in the same stylesheet:
// as the boot steps' own CSS files, each was one more request a step waited for. Only the styles of
// a screen that is not on the way to the dashboard are its own chunk's (referral, history, tasks).
import './styles/layout.css'
import './styles/dashboard.css'
import './styles/forms.css'
import './styles/modal.css'
import { earlyBoot } from '../adapters/browser/early-boot.ts'
import { showBootFailure } from './boot-failure.ts'
import { hasCatalogue, languageFor, loadCatalogue } from './i18n/catalogues.ts'
import { afterNextPaint, nextTask } from './lib/next-task.ts'
import type { StartedApp } from './app/started-app.ts'

const early = earlyBoot(import.meta.env.VITE_API_ORIGIN || '')
const languageCode = early.launch.initDataUnsafe.user?.language_code ?? ''
// The user's language's catalogue downloads beside the boot steps, asked for in the task after this
// one (the import's preload links are written into the page: work the entry's task need not hold).
// If it cannot load, the app speaks English rather than not start (and with neither, its
// boot-failure screen still does).
const catalogue = nextTask()
  .then(() => loadCatalogue(languageFor(languageCode)))
  .catch((error: unknown) => console.error('AXIOM: the catalogue did not load', error))

/** The started app, once there is one: a failed render stops it rather than leave it running unseen. */
let running: StartedApp | null = null

/** A boot step's end on the page's performance timeline (`axiom:<step>`), for profiles and traces. */
const mark = (step: string) => performance.mark(`axiom:${step}`)

const boot = async () => {
  // The boot's work runs behind a page that already shows the loader, while the steps' chunks
  // keep downloading.
  await afterNextPaint()
  mark('loader-painted')
  // What the first step imports (effect, mobx, inversify, the core, the adapters and view models:
  // two chunks, vite.config.ts `bootModules`) evaluates in tasks of its own, before the step's own
  // module: effect's chunk first (importing any of its modules evaluates it whole), then the rest.
  // One task for both was the longest of a repeat visit, and V8 wrote both chunks' code cache in one.
  await import('effect/Function').then(({ identity }) => identity)
  mark('effect-evaluated')
  await nextTask()
  const { loadDashboard } = await import('./app/dashboard-loader.ts')
  mark('shared-evaluated')
  await nextTask()
  const { composeBrowserApp } = await import('../composition-root.ts')
  mark('root-evaluated')
  await nextTask()
  const composed = await composeBrowserApp(early)
  mark('composed')
  await nextTask()
  running = composed.start()
  mark('started')
  const { renderApp } = await import('./render-app.tsx')
  mark('render-app-evaluated')
  await catalogue
  // Neither the user's language nor English could load: the failed screen (its English is the entry's).
  if (!hasCatalogue()) throw new Error('no message catalogue could load')
  // The dashboard's chunk (fetched since start()) is in before the first render, so that its first
  // commit is the dashboard, not a fallback React would keep up to 300 ms. A chunk that failed to
  // load is the route's to show, as on any later visit.
  if (location.pathname === '/') await loadDashboard().catch(() => undefined)
  await nextTask()
  renderApp(running)
  mark('render-scheduled')
}

boot().catch((error: unknown) => {
  console.error('AXIOM could not start', error)
  running?.app.stop()
  void catalogue.then(() => showBootFailure(document.getElementById('root')!, languageCode))
})
