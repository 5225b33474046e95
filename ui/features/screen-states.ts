/**
 * The view models of the screens beyond the dashboard (`ScreenStates`, ui/features/app-states.ts):
 * a chunk of its own, which the composition root loads once the first screen has painted, so that
 * no first paint downloads or evaluates them.
 */
export { FarmingState } from './farming/farming-state.ts'
export { HistoryState } from './history/history-state.ts'
export { ReferralsState } from './referrals/referrals-state.ts'
export { SellState } from './sell/sell-state.ts'
export { TasksState } from './tasks/tasks-state.ts'
