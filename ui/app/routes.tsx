import { lazy } from 'react'
import { Route, Switch } from 'wouter'
import { loadDashboard, loadedDashboard } from './dashboard-loader.ts'
import { withScreenTexts } from '../i18n/catalogues.ts'
import { Layout } from './layout.tsx'
import { ManifestRedirect, NotFound } from './manifest-redirect.tsx'

/** Every screen loads lazily (spec §2). */
const LazyDashboardScreen = lazy(() => loadDashboard().then((m) => ({ default: m.DashboardScreen })))
/** The dashboard at once when its chunk is already here (the boot waits for it), else lazily. */
function DashboardScreen() {
  const dashboard = loadedDashboard()
  return dashboard ? <dashboard.DashboardScreen /> : <LazyDashboardScreen />
}
const HistoryScreen = lazy(() => withScreenTexts(import('../features/history/history-screen.tsx')).then((m) => ({ default: m.HistoryScreen })))
const FarmingScreen = lazy(() => withScreenTexts(import('../features/farming/farming-screen.tsx')).then((m) => ({ default: m.FarmingScreen })))
const SellScreen = lazy(() => withScreenTexts(import('../features/sell/sell-screen.tsx')).then((m) => ({ default: m.SellScreen })))
const BondScreen = lazy(() => withScreenTexts(import('../features/bonds/bond-screen.tsx')).then((m) => ({ default: m.BondScreen })))
const ReferralScreen = lazy(() => withScreenTexts(import('../features/referrals/referral-screen.tsx')).then((m) => ({ default: m.ReferralScreen })))
const TasksScreen = lazy(() => withScreenTexts(import('../features/tasks/tasks-screen.tsx')).then((m) => ({ default: m.TasksScreen })))
const StakingScreen = lazy(() => withScreenTexts(import('../features/bonds/staking-screen.tsx')).then((m) => ({ default: m.StakingScreen })))
const SelectMintScreen = lazy(() => withScreenTexts(import('../features/bonds/select-mint-screen.tsx')).then((m) => ({ default: m.SelectMintScreen })))

/**
 * The routes of spec §2, by name: dashboard, history, dashboard_farming, dashboard_sell, mint,
 * referral (referral_farming, referral_sell), tasks (tasks_farming, tasks_sell), staking
 * (select-mint). Full paths, the first match wins; every route renders inside the layout.
 */
export function AppRoutes() {
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
