/**
 * The browser entry. The page already shows the loader (index.html); the app boots in steps, each
 * in its own task rather than one long one (a long task holds the page's input and paint):
 * 1. `start-app.ts` is evaluated (adapters, core, view models); in the next task it builds the app,
 *    and in the one after it starts it: the maintenance check goes out, then sign-in;
 * 2. `render-app.tsx` (React and the screens) is evaluated while those requests are out, and renders.
 * A step that cannot load (its download failed) shows the failed screen with "Try again".
 */
// The page's own styles: the loader in index.html is drawn with them before any step has run.
import './styles/base.css'
import './styles/components.css'
import { showBootFailure } from './boot-failure.ts'
import type { StartedApp } from './start-app.ts'

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** The started app, once there is one: a failed render stops it rather than leave it running unseen. */
let running: StartedApp | null = null

const boot = async () => {
  const { composeBrowserApp } = await import('./start-app.ts')
  await nextTask()
  const composed = composeBrowserApp()
  await nextTask()
  running = composed.start()
  const { renderApp } = await import('./render-app.tsx')
  await nextTask()
  renderApp(running)
}

boot().catch((error: unknown) => {
  console.error('AXIOM could not start', error)
  running?.app.stop()
  showBootFailure(document.getElementById('root')!)
})
