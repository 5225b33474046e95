/**
 * The browser entry. The page already shows the loader (index.html); the app boots in two steps,
 * each evaluated in its own task rather than one long one:
 * 1. `start-app.ts`: adapters, core and view models; the app starts signing in at once;
 * 2. `render-app.tsx`: React and the screens, evaluated while the sign-in requests are out.
 */
// The page's own styles: the loader in index.html is drawn with them before any step has run.
import './styles/base.css'
import './styles/components.css'

void import('./start-app.ts').then(async ({ startApp }) => {
  const started = startApp()
  const { renderApp } = await import('./render-app.tsx')
  renderApp(started)
})
