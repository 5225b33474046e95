/**
 * Stands in for `use-sync-external-store/shim` in the build (vite.config.ts): the shim is for
 * React before 18, and on React 19 it hands out React's own hook after its own checks.
 */
export { useSyncExternalStore } from 'react'
