/** An error a route answers with: `statusCode` and a JSON `{ msg }` the client shows. */
export type HttpError = Error & { readonly statusCode: number; readonly expose: true }

export const httpError = (statusCode: number, msg: string): HttpError =>
  Object.assign(new Error(msg), { statusCode, expose: true as const })

export const isHttpError = (e: unknown): e is HttpError =>
  e instanceof Error && (e as Partial<HttpError>).expose === true && typeof (e as Partial<HttpError>).statusCode === 'number'

/** The app reads exactly this 503 answer as 'maintenance began' (core/domain/constants.ts). */
export { MAINTENANCE_MSG } from '../../core/domain/constants.ts'
