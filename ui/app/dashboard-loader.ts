/**
 * The dashboard route's chunk. The boot starts fetching it while the app signs in (the app opens on
 * the dashboard), so it is there when the data is; the route renders it lazily from the same import.
 */
type DashboardModule = typeof import('../features/dashboard/dashboard-screen.tsx')

let loaded: DashboardModule | null = null

export const loadDashboard = (): Promise<DashboardModule> =>
  import('../features/dashboard/dashboard-screen.tsx').then((m) => (loaded = m))

/**
 * The chunk, if it has already loaded. The route renders it directly then: a lazy component always
 * suspends on its first render, and React holds back the reveal of a suspended first screen for up
 * to 300 ms after its fallback showed, which kept the dashboard's balances off screen that long.
 */
export const loadedDashboard = (): DashboardModule | null => loaded
