import { makeAutoObservable, observableRef } from 'mobx'
import type { DashboardSnapshot } from '../../core/domain/dashboard-snapshot.ts'
import type { Price } from '../../core/index.ts'

/**
 * The last dashboard the user saw, kept on the device (core/domain/dashboard-snapshot.ts), while it
 * stands in for the first figures: the app (ui/app/app-state.ts) shows it when a launch finds this
 * user's snapshot before the fresh figures are in, and clears it when they are (or when the start
 * ends on a full screen). The dashboard paints it marked with its age; nothing that moves money acts
 * on it.
 */
export class KeptDashboard {
  shown: DashboardSnapshot | null = null

  constructor() {
    makeAutoObservable(this, { shown: observableRef })
  }

  show(snapshot: DashboardSnapshot): void {
    this.shown = snapshot
  }

  clear(): void {
    this.shown = null
  }
}

/** What the first figures wait for, read from the session, bonds and market view models (and the kept dashboard, if any). */
export interface FirstFiguresSources {
  readonly session: { readonly user: unknown }
  readonly bonds: { readonly listed: boolean }
  readonly market: { readonly priceAsked: boolean; readonly price?: Price | null }
  readonly kept?: { readonly shown: DashboardSnapshot | null }
}

/**
 * The dashboard's first figures (the three balances and the price) appear together, in one paint,
 * rather than one by one as their answers come: the user, their bonds (the main balance includes the
 * day's accrual) and the price have been answered, or have failed. The start asks for exactly these
 * before the first screen's paint (AppState.start).
 */
export const firstFiguresIn = ({ session, bonds, market }: FirstFiguresSources): boolean =>
  session.user !== null && bonds.listed && market.priceAsked

/** The kept dashboard, while it stands in for the fresh figures: null once they are in (or when there is none). */
export const keptFigures = (s: FirstFiguresSources): DashboardSnapshot | null => (firstFiguresIn(s) ? null : (s.kept?.shown ?? null))

/** The price the dashboard shows: the fresh one with the first figures, else the kept dashboard's, else none yet. */
export const shownPrice = (s: FirstFiguresSources): Price | null => (firstFiguresIn(s) ? (s.market.price ?? null) : (s.kept?.shown?.price ?? null))
