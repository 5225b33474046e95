import { runAdminCommand } from '../admin.ts'
import type { HostAdmin } from './index.ts'

/**
 * The host's admin for a backend running in another process: it writes the backend's SQLite file
 * directly, as `npm run admin -- member <id>` does (the running server sees it on its next read).
 * Throws the backend's 404 when the user has not registered yet.
 */
export const adminForDb = (dbPath: string): HostAdmin => ({
  setMember: (tgId, member) => {
    runAdminCommand(dbPath, member ? ['member', String(tgId)] : ['member', String(tgId), 'off'])
  },
})
