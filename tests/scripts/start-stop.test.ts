import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../support/free-port.ts'

/**
 * `npm start`'s script (scripts/start.ts) as a child process on free ports and a database of its own
 * (never the fixed ports of a developer's `npm start`), stopped the way a terminal's Ctrl-C stops it:
 * SIGINT to the whole process group, so the bot, the backend and the script all get it at once.
 * The stop must name what stopped in order (the bot before the Telegram host emulator whose Bot API
 * it polls), print no crash trace, and exit 0.
 */


const dir = mkdtempSync(join(tmpdir(), 'axiom-start-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('npm start stops cleanly', () => {
  it('Ctrl-C: the bot stops first, then the emulator, the app and the backend; no crash trace; exit 0', async () => {
    const [port, tonPort, hostPort, appPort] = [await freePort(), await freePort(), await freePort(), await freePort()]
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      // Its own process group, as a terminal's foreground job: a signal to the group reaches every process.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        AXIOM_TON_PORT: String(tonPort),
        TG_HOST_PORT: String(hostPort),
        APP_PORT: String(appPort),
        AXIOM_DB: join(dir, 'axiom.db'),
        AXIOM_RATE_LIMITS: 'off',
      },
    })
    let out = ''
    let err = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    // Every process of the group has ended once the pipes they all write to are closed.
    const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
    try {
      const up = Date.now() + 90_000
      while (!/Open the app in the Telegram host emulator/.test(out) || !/AXIOM bot on/.test(out)) {
        if (Date.now() > up || child.exitCode !== null) throw new Error(`npm start did not come up:\n${out}\n${err}`)
        await new Promise((r) => setTimeout(r, 200))
      }
      // The bot's first long poll is under way.
      await new Promise((r) => setTimeout(r, 1_000))
      process.kill(-child.pid!, 'SIGINT')
      const code = await Promise.race([ended, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000))])
      const stopped = out.slice(out.indexOf('Stopping AXIOM:'))
      expect({ code, crash: /HttpError|Unhandled|ECONNREFUSED|\n\s+at /.test(err) ? err : null }).toEqual({ code: 0, crash: null })
      expect(stopped.match(/stopped: .*/g)).toEqual([
        'stopped: the bot',
        'stopped: the Telegram host emulator and its Bot API',
        'stopped: the mini app (vite)',
        'stopped: the reference backend and the local TON',
      ])
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL')
    }
  }, 150_000)
})
