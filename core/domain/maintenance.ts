import { MAINTENANCE_OFF_DETAIL } from './constants.ts'

/** Maintenance is off exactly when the detail reads 'Maintenance mode is disabled' (spec §4). */
export const isMaintenanceOff = (detail: string): boolean => detail === MAINTENANCE_OFF_DETAIL
