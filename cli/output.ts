import type { Effect } from 'effect'
import ora, { type Ora } from 'ora'
import { formatAmount, type Id, NANO_PER_TON, wireId } from '../core/index.ts'

/** Record ids print as the wire gives them (a digit id as a JSON number), not in their decoded string form. */
const ID_KEYS = new Set(['id', 'mint_id', 'staking_id', 'task_id'])
const wireIds = (key: string, value: unknown): unknown => (ID_KEYS.has(key) && typeof value === 'string' ? wireId(value as Id) : value)

/** The `--json` / NDJSON text of what a command prints. */
export const toJson = (data: unknown, space?: number): string => JSON.stringify(data, wireIds, space)

/** A stream the CLI writes to: process.stdout / process.stderr, or a test's collector. */
export interface OutStream {
  write(text: string): unknown
  readonly isTTY?: boolean
  readonly columns?: number
}

/** Token amounts: 2 decimals, truncated and grouped (spec §5). */
export const tokens = (v: number | string) => formatAmount(v, 2)
/** GRAM amounts (the chain's coin): 4 decimals. */
export const ton = (v: number | string) => formatAmount(v, 4)
/** Prices and ticking rewards: 6 decimals. */
export const fine = (v: number | string) => formatAmount(v, 6)
export const percent = (v: number) => `${formatAmount(v, 4)} %`
/** Nano-units (a decimal string) as GRAM. */
export const nanoToTon = (nano: string): string => {
  const n = BigInt(nano)
  const whole = n / BigInt(NANO_PER_TON)
  const frac = (n % BigInt(NANO_PER_TON)).toString().padStart(9, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : `${whole}`
}
/** Unix seconds as 'YYYY-MM-DD HH:MM' UTC. */
export const when = (seconds: number | null | undefined) =>
  seconds ? new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ') : '-'

/** A wait longer than this shows a spinner. */
export const SPINNER_DELAY_MS = 250

/**
 * The spinners of one run: at most one at a time, its text changeable while it waits (a bond's
 * steps), and `lines(target)` a stream whose writes (notices, toasts) go above the spinner
 * instead of through it. Without a terminal stream nothing is drawn.
 */
export class Spinners {
  private spinner: Ora | undefined

  constructor(private readonly stream: OutStream | null) {}

  async run<A>(text: string, task: (setText: (text: string) => void) => Promise<A>): Promise<A> {
    const stream = this.stream
    let current = text
    if (!stream || this.spinner) return task((t) => this.spinner && (this.spinner.text = t))
    const timer = setTimeout(() => {
      this.spinner = ora({ text: current, stream: stream as unknown as NodeJS.WritableStream }).start()
    }, SPINNER_DELAY_MS)
    try {
      return await task((t) => {
        current = t
        if (this.spinner) this.spinner.text = t
      })
    } finally {
      clearTimeout(timer)
      ;(this.spinner as Ora | undefined)?.stop()
      this.spinner = undefined
    }
  }

  /** `target` with the spinner cleared before each write and drawn again after it. */
  lines(target: OutStream): OutStream {
    return {
      isTTY: target.isTTY ?? false,
      ...(target.columns !== undefined ? { columns: target.columns } : {}),
      write: (text: string) => {
        this.spinner?.clear()
        const r = target.write(text)
        this.spinner?.render()
        return r
      },
    }
  }
}

/** How a command answers: data on stdout (as JSON with --json), and the spinners of its waits. */
export interface Out {
  readonly json: boolean
  emit(data: unknown, human: string | (() => string)): void
  /** Runs a core effect, with a spinner on a terminal when it takes more than a moment. */
  exec<A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>, spinner?: string): Promise<A>
  /** A longer wait whose spinner text changes as it goes. */
  progress<A>(text: string, task: (setText: (text: string) => void) => Promise<A>): Promise<A>
}
