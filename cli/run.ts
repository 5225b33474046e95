import { parseArgs } from 'node:util'
import { userMessage, type AppError } from '../core/index.ts'
import { EXIT, Exit, UsageError } from './args.ts'
import { COMMANDS, type Command, GROUPS, type Parsed, signIn } from './commands/index.ts'
import { type CliContext, type CliIo, composeCli, EffectFailure, runEffect } from './context.ts'
import { type Out, Spinners, toJson } from './output.ts'

export { EXIT } from './args.ts'
export type { CliIo } from './context.ts'

const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

const usageLine = (c: Command) => `axiom ${c.name}${c.args ? ` ${c.args}` : ''}`

export const helpText = (): string =>
  'axiom: the AXIOM command line, on the same core as the mini app.\n\n' +
  'Usage: axiom <command> [options] [--json]\n\n' +
  COMMANDS.map((c) => `  ${usageLine(c)}\n      ${c.summary}`).join('\n') +
  `\n  axiom help [command]\n      This help, or one command's\n\n` +
  'Options: --json prints machine-readable JSON on stdout (errors stay on stderr); -h, --help.\n' +
  'Environment: AXIOM_API (default http://127.0.0.1:8787), AXIOM_HOME (default ~/.config/axiom),\n' +
  '  BOT_TOKEN (signs login --dev-user; default the local backend dev token),\n' +
  '  AXIOM_TON (the local TON server: bridge, dev wallet, wallets list; default http://127.0.0.1:8788),\n' +
  '  AXIOM_TON_V4 (a TON v4 API; default AXIOM_TON), AXIOM_DEV_WALLET=1 (wallet connect uses the local dev wallet).\n' +
  'Exit codes: 0 ok, 1 failed, 2 usage, 3 not logged in or refused, 4 network.\n'

const commandHelp = (c: Command) =>
  `Usage: ${usageLine(c)} [--json]\n\n${c.summary}.\n\nExample${c.examples.length > 1 ? 's' : ''}:\n${c.examples.map((e) => `  ${e}`).join('\n')}\n`

/** Splits the command words ('farm create') from the rest of the line. */
const findCommand = (argv: ReadonlyArray<string>): { command: Command | null; words: string[]; rest: string[] } => {
  const rest = [...argv]
  const at = rest.findIndex((a) => !a.startsWith('-'))
  if (at < 0) return { command: null, words: [], rest }
  const [word] = rest.splice(at, 1) as [string]
  const words = [word]
  if (GROUPS.includes(word)) {
    const subAt = rest.findIndex((a) => !a.startsWith('-'))
    const sub = subAt >= 0 ? rest[subAt] : undefined
    if (sub !== undefined && COMMANDS.some((c) => c.name === `${word} ${sub}`)) {
      rest.splice(subAt, 1)
      words.push(sub)
    } else if (word === 'farm') {
      throw new UsageError(`farm needs one of: create, list, cancel, activate`)
    } else if (word === 'wallet') {
      throw new UsageError(`wallet needs one of: connect, status, disconnect`)
    }
  }
  return { command: COMMANDS.find((c) => c.name === words.join(' ')) ?? null, words, rest }
}

/** The exit code a typed failure earns. */
export const exitCodeFor = (tag: string): number => {
  switch (tag) {
    case 'Unauthorized':
    case 'OutsidePlatform':
      return EXIT.auth
    case 'NetworkError':
    case 'Timeout':
      return EXIT.network
    case 'InvalidInput':
      return EXIT.usage
    default:
      return EXIT.failure
  }
}

const NOT_LOGGED_IN = 'Not logged in. Run: axiom login --dev-user <id> (local backend) or axiom login <initData>'

/**
 * The CLI: runs one command line and resolves with its exit code. Everything it touches comes
 * through `io` (arguments, environment, output streams, abort signal), so tests run it in-process.
 */
export const run = async (argv: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  const err = (text: string) => io.stderr.write(text.endsWith('\n') ? text : `${text}\n`)
  let json = argv.includes('--json')
  let command: Command | null = null
  let context: CliContext | null = null
  try {
    const found = findCommand(argv)
    command = found.command
    const word = found.words[0]
    if (word === undefined || word === 'help' || (found.command === null && argv.includes('--help'))) {
      const topic = word === 'help' ? found.rest.filter((a) => !a.startsWith('-')).join(' ') : ''
      const c = COMMANDS.find((x) => x.name === topic)
      io.stdout.write(c ? commandHelp(c) : helpText())
      if (topic && !c) return EXIT.usage
      return word === undefined && !argv.includes('--help') && !argv.includes('-h') ? EXIT.usage : EXIT.ok
    }
    if (!found.command) throw new UsageError(`Unknown command "${found.words.join(' ')}". See: axiom help`)
    const c = found.command

    let parsed: Parsed
    try {
      const { values, positionals } = parseArgs({
        args: found.rest,
        options: { ...GLOBAL_OPTIONS, ...(c.options ?? {}) },
        allowPositionals: true,
        strict: true,
      })
      parsed = { values, positionals }
    } catch (e) {
      throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''))
    }
    json = parsed.values.json === true
    if (parsed.values.help) {
      io.stdout.write(commandHelp(c))
      return EXIT.ok
    }
    const [min, max] = c.positionals
    if (parsed.positionals.length < min) throw new UsageError(`Missing argument${min > 1 ? 's' : ''}`)
    if (parsed.positionals.length > max) throw new UsageError(`Unexpected argument "${parsed.positionals[max]}"`)

    const spinners = new Spinners(!json && io.stdout.isTTY && io.stderr.isTTY ? io.stderr : null)
    context = composeCli(io, spinners)
    const out: Out = {
      json,
      emit: (data, human) => {
        io.stdout.write(json ? `${toJson(data, 2)}\n` : typeof human === 'string' ? human : human())
      },
      exec: (effect, spinner) => spinners.run(spinner ?? 'Working', () => runEffect(effect)),
      progress: (text, task) => spinners.run(text, task),
    }
    if (c.auth) {
      if (!context.platform.launch() && !context.session.get('refresh_token') && !context.session.get('auth_token')) {
        err(NOT_LOGGED_IN)
        return EXIT.auth
      }
      await signIn(context, out)
    }
    await c.run(context, out, parsed)
    return EXIT.ok
  } catch (e) {
    if (e instanceof UsageError) {
      err(`Error: ${e.message}`)
      if (command) err(`Usage: axiom ${command.name}${command.args ? ` ${command.args}` : ''}`)
      return EXIT.usage
    }
    if (e instanceof Exit) return e.code
    if (e instanceof EffectFailure) {
      const error = e.error as AppError
      // The command's typed failure, in the §8 words, and the exit code it earns.
      err(error._tag === 'OutsidePlatform' ? NOT_LOGGED_IN : withDetail(error))
      return exitCodeFor(error._tag)
    }
    err(`Error: ${e instanceof Error ? e.message : String(e)}`)
    return EXIT.failure
  } finally {
    context?.dispose()
  }
}

/** The §8 message, and what the wallet said when the message alone does not tell (an unknown wallet error). */
const withDetail = (error: AppError): string => {
  const text = userMessage(error)
  const detail = error._tag === 'WalletProtocolError' ? error.message : error._tag === 'TransactionNotSent' ? error.reason : undefined
  return detail && detail !== text && error._tag === 'WalletProtocolError' && error.code === 0 ? `${text}: ${detail}` : text
}
