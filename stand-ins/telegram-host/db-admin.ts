import { runAdminCommand, UnknownTelegramUser, type RunningServer } from '../../server/main.ts'
import type { HostAdmin } from './index.ts'

/** A user the backend does not know yet is the host's 404 (it answers an admin error's `statusCode`). */
const notFoundWhenUnknown = async (set: () => Promise<unknown>): Promise<void> => {
  try {
    await set()
  } catch (e) {
    if (e instanceof UnknownTelegramUser) throw Object.assign(new Error(e.message), { statusCode: 404 })
    throw e
  }
}

/** The host's admin for a backend in this process: its operator commands (RunningServer.admin). */
export const adminForServer = (server: Pick<RunningServer, 'admin'>): HostAdmin => ({
  setMember: (tgId, member) => notFoundWhenUnknown(() => server.admin.setMember(tgId, member)),
})

/**
 * The host's admin for a backend running in another process: it writes the backend's database
 * (AXIOM_DB: a SQLite file or PostgreSQL) directly, as `npm run admin -- member <id>` does (the running server sees it on its next read).
 * Answers 404 when the user has not registered yet.
 */
export const adminForDb = (dbPath: string): HostAdmin => ({
  setMember: (tgId, member) =>
    notFoundWhenUnknown(() => runAdminCommand(dbPath, member ? ['member', String(tgId)] : ['member', String(tgId), 'off'])),
})
