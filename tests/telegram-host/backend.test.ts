import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN, startServer, type RunningServer } from '../../server/main.ts'
import { adminForDb, adminForServer } from '../../stand-ins/telegram-host/db-admin.ts'
import { startTelegramHost, type RunningTelegramHost } from '../../stand-ins/telegram-host/index.ts'

const json = async (url: string, method: string, body?: unknown, token?: string) => {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as any }
}

describe('telegram host with the reference backend', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axiom-tg-host-'))
  const dbPath = join(dir, 'axiom.db')
  let backend: RunningServer
  let inProcess: RunningTelegramHost
  let separate: RunningTelegramHost

  beforeAll(async () => {
    backend = await startServer({ port: 0, host: '127.0.0.1', dbPath, botToken: DEV_BOT_TOKEN })
    // As scripts/start.ts may wire it: the backend in this process, or in another one (the db file).
    inProcess = await startTelegramHost({ appUrl: 'http://127.0.0.1:1/', botToken: DEV_BOT_TOKEN, admin: adminForServer(backend) })
    separate = await startTelegramHost({ appUrl: 'http://127.0.0.1:1/', botToken: DEV_BOT_TOKEN, admin: adminForDb(dbPath) })
  })
  afterAll(async () => {
    await Promise.all([inProcess?.close(), separate?.close()])
    await backend?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const register = async (host: RunningTelegramHost, id: number) => {
    const launch = await json(new URL('/launch', host.url).href, 'POST', { user: { id, first_name: `U${id}` } })
    expect(launch.status).toBe(200)
    const r = await json(`${backend.url}/api/auth/register`, 'POST', { init_data: launch.body.initData, ref_code: null })
    expect(r.status).toBe(200)
    return r.body.token as string
  }
  const member = async (token: string) => (await json(`${backend.url}/api/user/me`, 'GET', undefined, token)).body.community_participation

  it('the backend accepts the host’s initData, and joining the community makes the user a member', async () => {
    for (const [host, id] of [[inProcess, 5101], [separate, 5102]] as const) {
      const token = await register(host, id)
      expect(await member(token)).toBe(false)
      expect((await json(new URL('/join-community', host.url).href, 'POST', { user_id: id })).status).toBe(200)
      expect(await member(token)).toBe(true)
      expect((await json(new URL('/community', host.url).href, 'POST', { user_id: id, member: false })).status).toBe(200)
      expect(await member(token)).toBe(false)
    }
  })

  it('the backend signs in users of every client version the host emulates, with and without a signature', async () => {
    const versions: Array<[string, boolean]> = [['6.0', false], ['7.10', false], ['8.0', true], ['9.1', true]]
    for (const [i, [version, signed]] of versions.entries()) {
      const id = 5201 + i
      const launch = await json(new URL('/launch', inProcess.url).href, 'POST', { user: { id, first_name: `V${version}` }, version })
      expect(launch.status).toBe(200)
      expect(new URLSearchParams(launch.body.initData).has('signature'), version).toBe(signed)
      const r = await json(`${backend.url}/api/auth/register`, 'POST', { init_data: launch.body.initData, ref_code: null })
      expect(r.status, version).toBe(200)
      expect((await json(`${backend.url}/api/user/me`, 'GET', undefined, r.body.token)).status).toBe(200)
    }
  })

  it('joins for a user the backend does not know yet (Telegram does not ask the backend), and says so', async () => {
    for (const host of [inProcess, separate]) {
      const r = await json(new URL('/join-community', host.url).href, 'POST', { user_id: 999_999 })
      expect(r.status).toBe(200)
      expect(r.body.backend).toBe('unknown user')
    }
  })
})
