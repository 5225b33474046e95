import { homedir } from 'node:os'
import { join } from 'node:path'

/** Where the CLI keeps its files: $AXIOM_HOME, else ~/.config/axiom. */
export const axiomHome = (env: NodeJS.ProcessEnv = process.env): string =>
  env.AXIOM_HOME || join(homedir(), '.config', 'axiom')
