/**
 * The screens beyond the dashboard, one dynamic import apiece. They live in a chunk of their own,
 * which the routes load after the first paint (routes.tsx): for each of these imports the build
 * writes a preload list (a file name for each chunk and stylesheet the screen needs, 0.4 KiB gz for
 * the eight), which the dashboard's first paint has no use for.
 */
export const history = () => import('../features/history/history-screen.tsx').then((m) => m.HistoryScreen)
export const farming = () => import('../features/farming/farming-screen.tsx').then((m) => m.FarmingScreen)
export const sell = () => import('../features/sell/sell-screen.tsx').then((m) => m.SellScreen)
export const bond = () => import('../features/bonds/bond-screen.tsx').then((m) => m.BondScreen)
export const referral = () => import('../features/referrals/referral-screen.tsx').then((m) => m.ReferralScreen)
export const tasks = () => import('../features/tasks/tasks-screen.tsx').then((m) => m.TasksScreen)
export const staking = () => import('../features/bonds/staking-screen.tsx').then((m) => m.StakingScreen)
export const selectMint = () => import('../features/bonds/select-mint-screen.tsx').then((m) => m.SelectMintScreen)
