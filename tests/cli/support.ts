import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run } from '../../cli/run.ts'
import { startServer, type RunningServer, type StartOptions } from '../../server/main.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'

/** Collects what the CLI writes; `isTTY` false, as when piped. */
export class Sink {
  text = ''
  readonly isTTY: boolean
  readonly columns: number | undefined
  private readonly listeners: Array<() => void> = []

  constructor(options: { isTTY?: boolean; columns?: number } = {}) {
    this.isTTY = options.isTTY ?? false
    this.columns = options.columns
  }

  write(chunk: string): boolean {
    this.text += chunk
    for (const l of [...this.listeners]) l()
    return true
  }

  /** Resolves once the collected text satisfies `test` (checked on every write). */
  until(test: (text: string) => boolean, timeoutMs = 5000): Promise<void> {
    if (test(this.text)) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting; got:\n${this.text}`)), timeoutMs)
      const check = () => {
        if (!test(this.text)) return
        clearTimeout(timer)
        this.listeners.splice(this.listeners.indexOf(check), 1)
        resolve()
      }
      this.listeners.push(check)
    })
  }
}

export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  json<T = any>(): T
}

export interface CliUser {
  readonly home: string
  readonly env: Record<string, string>
  /** Runs one command line in-process, as this user's AXIOM_HOME. */
  run(argv: string[], options?: { stdout?: Sink; stderr?: Sink; signal?: AbortSignal; env?: Record<string, string> }): Promise<CliResult>
}

export interface CliStack {
  readonly server: RunningServer
  /** A fresh AXIOM_HOME pointed at the test server. */
  user(): CliUser
  close(): Promise<void>
}

export const startCliStack = async (options: { server?: StartOptions; env?: Record<string, string> } = {}): Promise<CliStack> => {
  const server = await startServer({ port: 0, dbPath: ':memory:', priceTickMs: 200, rateLimits: RELAXED_RATE_LIMITS, ...(options.server ?? {}) })
  const homes: string[] = []
  return {
    server,
    user: () => {
      const home = mkdtempSync(join(tmpdir(), 'axiom-cli-'))
      homes.push(home)
      const env: Record<string, string> = { AXIOM_API: server.url, AXIOM_HOME: home, ...(options.env ?? {}) }
      return {
        home,
        env,
        run: async (argv, o = {}) => {
          const stdout = o.stdout ?? new Sink()
          const stderr = o.stderr ?? new Sink()
          const code = await run(argv, {
            env: { ...env, ...(o.env ?? {}) },
            stdout,
            stderr,
            ...(o.signal ? { signal: o.signal } : {}),
          })
          return {
            code,
            stdout: stdout.text,
            stderr: stderr.text,
            json: () => JSON.parse(stdout.text),
          }
        },
      }
    },
    close: async () => {
      await server.close()
      for (const h of homes) rmSync(h, { recursive: true, force: true })
    },
  }
}

/** A valid friendly TON address (bounceable, workchain 0). */
export const SOME_ADDRESS = 'EQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF'

let nextId = 7_000
/** A Telegram user id no other test uses. */
export const freshId = () => ++nextId
