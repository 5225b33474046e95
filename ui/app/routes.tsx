import { lazy } from 'react'
import type { RouteObject } from 'react-router'
import { loadDashboard } from './dashboard-loader.ts'
import { Layout } from './layout.tsx'
import { ManifestRedirect, NotFound } from './manifest-redirect.tsx'


/** Every screen loads lazily (spec §2). */
const DashboardScreen = lazy(() => loadDashboard().then((m) => ({ default: m.DashboardScreen })))
const HistoryScreen = lazy(() => import('../features/history/history-screen.tsx').then((m) => ({ default: m.HistoryScreen })))
const FarmingScreen = lazy(() => import('../features/farming/farming-screen.tsx').then((m) => ({ default: m.FarmingScreen })))
const SellScreen = lazy(() => import('../features/sell/sell-screen.tsx').then((m) => ({ default: m.SellScreen })))
const BondScreen = lazy(() => import('../features/bonds/bond-screen.tsx').then((m) => ({ default: m.BondScreen })))
const ReferralScreen = lazy(() => import('../features/referrals/referral-screen.tsx').then((m) => ({ default: m.ReferralScreen })))
const TasksScreen = lazy(() => import('../features/tasks/tasks-screen.tsx').then((m) => ({ default: m.TasksScreen })))
const StakingScreen = lazy(() => import('../features/bonds/staking-screen.tsx').then((m) => ({ default: m.StakingScreen })))
const SelectMintScreen = lazy(() => import('../features/bonds/select-mint-screen.tsx').then((m) => ({ default: m.SelectMintScreen })))

/**
 * The routes of spec §2, by name:
 * dashboard, history, dashboard_farming, dashboard_sell, mint, referral (referral_farming,
 * referral_sell), tasks (tasks_farming, tasks_sell), staking (select-mint).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, id: 'dashboard', element: <DashboardScreen /> },
      { path: 'history', id: 'history', element: <HistoryScreen /> },
      { path: 're-bonding', id: 'dashboard_farming', element: <FarmingScreen source="main" /> },
      { path: 'sell', id: 'dashboard_sell', element: <SellScreen fromReferral={false} /> },
      { path: 'bond', id: 'mint', element: <BondScreen /> },
      {
        path: 'referral',
        children: [
          { index: true, id: 'referral', element: <ReferralScreen /> },
          { path: 're-bonding', id: 'referral_farming', element: <FarmingScreen source="referral" /> },
          { path: 'sell', id: 'referral_sell', element: <SellScreen fromReferral /> },
        ],
      },
      {
        path: 'tasks',
        children: [
          { index: true, id: 'tasks', element: <TasksScreen /> },
          { path: 're-bonding', id: 'tasks_farming', element: <FarmingScreen source="task" /> },
          { path: 'sell', id: 'tasks_sell', element: <SellScreen fromReferral={false} /> },
        ],
      },
      {
        path: 'staking',
        children: [
          { index: true, id: 'staking', element: <StakingScreen /> },
          { path: 'select', id: 'select-mint', element: <SelectMintScreen /> },
        ],
      },
      { path: 'tonconnect-manifest.json', element: <ManifestRedirect /> },
      { path: '*', element: <NotFound /> },
    ],
  },
]
