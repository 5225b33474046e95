export type AuthStep = 'use-cookie' | 'refresh' | 'register'

/**
 * The auth order (spec §4): the auth_token cookie if present, else the refresh token,
 * else a registration with the platform init data.
 */
export const authSteps = (have: { readonly authToken: boolean; readonly refreshToken: boolean }): AuthStep[] => [
  ...(have.authToken ? (['use-cookie'] as const) : []),
  ...(have.refreshToken ? (['refresh'] as const) : []),
  'register',
]

/** A different platform user than the stored one means storage and cookies are wiped (spec §4). */
export const isDifferentUser = (storedUserId: string | null, currentUserId: string | null): boolean =>
  storedUserId !== null && currentUserId !== null && storedUserId !== currentUserId
