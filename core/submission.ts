import { Effect } from 'effect'
import { isUnanswered } from './unanswered.ts'

/** A fresh idempotency key: random, 36 characters (the server takes 1 to 200). */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID()

/** The inputs as one text, keys sorted at every level: the same inputs give the same text. */
const fingerprint = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : typeof x === 'bigint'
        ? x.toString()
        : x,
  )

/**
 * One form's submissions and their Idempotency-Key: the rule that makes tapping again safe.
 *
 * A submission gets a key and keeps it until a definite answer: a success, or a failure that says the
 * request was refused or never sent. After a failure that leaves the outcome unknown (network error,
 * timeout, 5xx: `isUnanswered`) the next submission of the same inputs carries the same key, so a
 * create the server carried out without its answer arriving is answered again, not made twice.
 * Other inputs, or any definite answer, start a new key.
 */
export class Submission {
  private kept: { readonly inputs: string; readonly key: string } | null = null

  constructor(private readonly newKey: () => string = newIdempotencyKey) {}

  /** Runs `create` with the key for these inputs, and keeps or drops the key by its outcome. */
  send<A, E extends { readonly _tag: string }, R>(
    inputs: unknown,
    create: (idempotencyKey: string) => Effect.Effect<A, E, R>,
  ): Effect.Effect<A, E, R> {
    return Effect.suspend(() => {
      const text = fingerprint(inputs)
      const key = this.kept?.inputs === text ? this.kept.key : this.newKey()
      this.kept = { inputs: text, key }
      const settle = (keep: boolean) =>
        Effect.sync(() => {
          // A later submission with other inputs owns the slot now: leave it alone.
          if (this.kept?.key === key && !keep) this.kept = null
        })
      return create(key).pipe(
        Effect.tap(() => settle(false)),
        Effect.tapError((e) => settle(isUnanswered(e))),
      )
    })
  }

  /** The key an unanswered submission left for a retry of the same inputs, if any. */
  get pendingKey(): string | null {
    return this.kept?.key ?? null
  }
}
