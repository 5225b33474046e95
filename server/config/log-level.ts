/** The request log's levels (Fastify's, pino's), most severe first. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export const DEFAULT_LOG_LEVEL: LogLevel = 'info'

/** AXIOM_LOG_LEVEL: unset or empty is `info`; anything but a level is an error naming the levels. */
export const logLevelOf = (v: string | undefined): LogLevel => {
  const level = v?.trim().toLowerCase() ?? ''
  if (level === '') return DEFAULT_LOG_LEVEL
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`AXIOM_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
  return level as LogLevel
}
