import { type ComponentType, lazy, useEffect } from 'react'
import { Route, Switch } from 'wouter'
import { loadDashboard, loadedDashboard } from './dashboard-loader.ts'
import { ScreenStatesGate } from '../features/app-states.ts'
import { withScreenTexts } from '../i18n/catalogues.ts'
import { firstScreenPainted } from '../lib/first-paint.ts'
import { Layout } from './layout.tsx'
import { ManifestRedirect, NotFound } from './manifest-redirect.tsx'

/** Every screen loads lazily (spec §2). */
const LazyDashboardScreen = lazy(() => loadDashboard().then((m) => ({ default: m.DashboardScreen })))
/** The dashboard at once when its chunk is already here (the boot waits for it), else lazily. */
function DashboardScreen() {
  const dashboard = loadedDashboard()
  return dashboard ? <dashboard.DashboardScreen /> : <LazyDashboardScreen />
}
/**
 * A screen beyond the dashboard: its chunk with the screens' texts, and the other screens' view
 * models (made after the first paint, AppStates `screens`), which it may read; the three load
 * together, under the layout's loading fallback.
 */
const screen = <P extends object>(load: () => Promise<ComponentType<P>>) => {
  const Lazy = lazy(() => load().then((c) => ({ default: c })))
  const preload = () => void load().catch(() => undefined)
  return function Screen(props: P) {
    return (
      <ScreenStatesGate preload={preload}>
        <Lazy {...props} />
      </ScreenStatesGate>
    )
  }
}
/** The screens' imports (screen-chunks.ts), a chunk of their own, asked for once the first screen has painted. */
const screenChunks = () => import('./screen-chunks.ts')
const HistoryScreen = screen(() => withScreenTexts(screenChunks().then((m) => m.history())))
const FarmingScreen = screen(() => withScreenTexts(screenChunks().then((m) => m.farming())))
const SellScreen = screen(() => withScreenTexts(screenChunks().then((m) => m.sell())))
const BondScreen = screen(() => withScreenTexts(screenChunks().then((m) => m.bond())))
const ReferralScreen = screen(() => withScreenTexts(screenChunks().then((m) => m.referral())))
const TasksScreen = screen(() => withScreenTexts(screenChunks().then((m) => m.tasks())))
const StakingScreen = screen(() => withScreenTexts(screenChunks().then((m) => m.staking())))
const SelectMintScreen = screen(() => withScreenTexts(screenChunks().then((m) => m.selectMint())))

/**
 * The routes of spec §2, by name: dashboard, history, dashboard_farming, dashboard_sell, mint,
 * referral (referral_farming, referral_sell), tasks (tasks_farming, tasks_sell), staking
 * (select-mint). Full paths, the first match wins; every route renders inside the layout.
 */
export function AppRoutes() {
  // The screens' imports are here before the user first leaves the dashboard.
  useEffect(() => void firstScreenPainted().then(screenChunks).catch(() => undefined), [])
  return (
    <Layout>
      <Switch>
        <Route path="/" component={DashboardScreen} />
        <Route path="/history" component={HistoryScreen} />
        <Route path="/re-bonding">
          <FarmingScreen source="main" />
        </Route>
        <Route path="/sell">
          <SellScreen fromReferral={false} />
        </Route>
        <Route path="/bond" component={BondScreen} />
        <Route path="/referral" component={ReferralScreen} />
        <Route path="/referral/re-bonding">
          <FarmingScreen source="referral" />
        </Route>
        <Route path="/referral/sell">
          <SellScreen fromReferral />
        </Route>
        <Route path="/tasks" component={TasksScreen} />
        <Route path="/tasks/re-bonding">
          <FarmingScreen source="task" />
        </Route>
        <Route path="/tasks/sell">
          <SellScreen fromReferral={false} />
        </Route>
        <Route path="/staking" component={StakingScreen} />
        <Route path="/staking/select" component={SelectMintScreen} />
        <Route path="/tonconnect-manifest.json" component={ManifestRedirect} />
        <Route component={NotFound} />
      </Switch>
    </Layout>
  )
}
