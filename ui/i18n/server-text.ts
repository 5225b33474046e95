import { hasText as isKey, type Translate, type Vars } from './catalogues.ts'

/**
 * A text the backend sends as a key and parameters (a task's title, a history row's description),
 * in the user's language. A key this app does not know shows the backend's English `fallback`.
 * Parameters that are keys themselves (`task_key`) are translated too, and a bond or stake is
 * shown by the user's own number (`bond_number`) where the backend gives it.
 */
export const serverText = (
  t: Translate,
  key: string | null | undefined,
  params: Readonly<Record<string, string | number>> | null | undefined,
  fallback: string,
): string => {
  if (!key || !isKey(key)) return fallback
  const vars: Record<string, string | number> = { ...params }
  if (typeof vars.task_key === 'string' && isKey(vars.task_key)) vars.task = t(vars.task_key)
  if (vars.bond_number !== undefined) vars.bond = vars.bond_number
  if (vars.stake_number !== undefined) vars.stake = vars.stake_number
  return t(key, vars as Vars)
}
