import { randomUUID } from 'node:crypto'
import { nowSeconds } from '../../core/index.ts'
import { Exit } from '../args.ts'
import type { CliContext } from '../context.ts'
import type { Out } from '../output.ts'

export interface Parsed {
  readonly positionals: ReadonlyArray<string>
  readonly values: Readonly<Record<string, string | boolean | undefined>>
}

type OptionSpec = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>>

/** One command of the CLI: its words, help, options, and what it does (docs/cli.md). */
export interface Command {
  readonly name: string
  readonly args: string
  readonly summary: string
  readonly examples: ReadonlyArray<string>
  readonly options?: OptionSpec
  /** How many positional arguments: [min, max]. */
  readonly positionals: readonly [number, number]
  /** Signs in (the core's authenticate) before running. */
  readonly auth: boolean
  /** How a command speaks: one JSON document with --json, else human text; core effects run through `out.exec`. */
  run(ctx: CliContext, out: Out, a: Parsed): Promise<void>
}

export const newKey = () => randomUUID()

export const now = (ctx: CliContext) => nowSeconds(ctx.clock)

/** A read that answered nothing: the command fails with exit 1. */
export const orFail = <A>(value: A | null): A => {
  if (value === null) throw new Exit(1)
  return value
}
