/**
 * The dashboard route's chunk. The boot starts fetching it while the app signs in (the app opens on
 * the dashboard), so it is there when the data is; the route renders it lazily from the same import.
 */
export const loadDashboard = () => import('../features/dashboard/dashboard-screen.tsx')
