import type { MintPlan } from './entities/mint.ts'

/** The plans a user may pick (spec §9): only active ones, sorted by days. */
export const activePlansByDays = <P extends Pick<MintPlan, 'days' | 'is_active'>>(plans: ReadonlyArray<P>): P[] =>
  plans.filter((p) => p.is_active).sort((a, b) => a.days - b.days)
