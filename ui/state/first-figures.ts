/** What the first figures wait for, read from the session, bonds and market view models. */
export interface FirstFiguresSources {
  readonly session: { readonly user: unknown }
  readonly bonds: { readonly listed: boolean }
  readonly market: { readonly priceAsked: boolean }
}

/**
 * The dashboard's first figures (the three balances and the price) appear together, in one paint,
 * rather than one by one as their answers come: the user, their bonds (the main balance includes the
 * day's accrual) and the price have been answered, or have failed. The start asks for exactly these
 * before the first screen's paint (AppState.start).
 */
export const firstFiguresIn = ({ session, bonds, market }: FirstFiguresSources): boolean =>
  session.user !== null && bonds.listed && market.priceAsked
