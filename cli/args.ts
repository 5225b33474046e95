import { type Id, parseAmountInput, toId } from '../core/index.ts'

/** Exit codes (docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** The server refused, or anything else went wrong. */
  failure: 1,
  /** Bad command line: nothing was sent. */
  usage: 2,
  /** Not logged in, or the session was refused. */
  auth: 3,
  /** The backend could not be reached, or did not answer in time. */
  network: 4,
} as const

/** A command line the CLI cannot act on. Nothing has been sent when it is thrown. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message)
  }
}

/** Ends a command with an exit code after its message was already shown (or there is none to show). */
export class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

/** Most decimals the backend takes in an amount. */
export const AMOUNT_DECIMALS = 9

/** An amount typed on the command line: '12.5', '12,5', '1 000'; positive, at most 9 decimals kept. */
export const amountArg = (raw: string | undefined, name = 'amount'): number => {
  if (raw === undefined) throw new UsageError(`Missing <${name}>`)
  const parsed = parseAmountInput(raw, AMOUNT_DECIMALS)
  if (!parsed.ok)
    throw new UsageError(
      parsed.reason === 'not-positive'
        ? `<${name}> must be above zero, got "${raw}"`
        : `<${name}> must be a number such as 10 or 2.5, got "${raw}"`,
    )
  return parsed.value
}

/** A whole number from `min`, such as an id, a day count or a page. */
export const wholeArg = (raw: string | boolean | undefined, name: string, min = 1): number => {
  if (raw === undefined || typeof raw === 'boolean') throw new UsageError(`Missing ${name}`)
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(`${name} must be a whole number${min > 0 ? ` from ${min}` : ''}, got "${raw}"`)
  return Number(raw)
}

/** A record id argument: a whole number from 1, as the canonical id (`012` and `12` are the same id). */
export const idArg = <I extends Id = Id>(raw: string | boolean | undefined, name: string): I => toId<I>(wholeArg(raw, name))

export const stringArg = (raw: string | boolean | undefined, name: string): string => {
  if (typeof raw !== 'string' || raw.trim() === '') throw new UsageError(`Missing ${name}`)
  return raw.trim()
}
