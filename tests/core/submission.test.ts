import { Effect } from 'effect'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type HttpRequest, makeHttpAxiomApi, NetworkError, RequestRejected, ServerFailed, Submission, Timeout } from '../../core/index.ts'
import { FakeHttpTransport } from './fakes/fake-http-transport.ts'
import { MemorySessionStore } from './fakes/memory-stores.ts'

const TRANSFER = '/withdraw/transfer-from-referral-balance'
const keyOf = (r: HttpRequest) => r.idempotencyKey

/** A server that carries every transfer out, once per key, as docs/api.md says; the first answer never arrives. */
const droppingServer = () => {
  const applied = new Map<string, number>()
  let calls = 0
  const http = new FakeHttpTransport().on(`POST ${TRANSFER}`, (req) => {
    const key = req.idempotencyKey ?? `none-${calls}`
    if (!applied.has(key)) applied.set(key, applied.size + 1)
    if (++calls === 1) return Effect.fail(new NetworkError({ cause: 'connection reset after the request was sent' }))
    return { status: 200, body: { balance_token: 100 + applied.size, referral_balance: 0 } }
  })
  const session = new MemorySessionStore()
  session.set('auth_token', 'token')
  return { http, applied, api: makeHttpAxiomApi({ http, session }) }
}

describe('Submission: one Idempotency-Key per form submission', () => {
  it('a tap again after an answer that never came carries the same key, so the server applies it once', async () => {
    const { http, applied, api } = droppingServer()
    const form = new Submission()
    const transfer = (amount: number) => form.send({ amount }, (idempotencyKey) => api.transferFromReferral({ token_amount: amount }, { idempotencyKey }))

    const first = await Effect.runPromise(Effect.result(transfer(20)))
    expect(first._tag === 'Failure' && first.failure._tag).toBe('NetworkError')
    const again = await Effect.runPromise(Effect.result(transfer(20)))
    expect(again._tag).toBe('Success')

    const keys = http.requests.map(keyOf)
    expect(keys).toHaveLength(2)
    expect(keys[0]).toMatch(/^.{1,200}$/)
    expect(keys[1]).toBe(keys[0])
    expect(applied.size).toBe(1)

    // Answered: the next submission, even of the same amount, is a new transfer.
    await Effect.runPromise(transfer(20))
    expect(http.requests.map(keyOf)[2]).not.toBe(keys[0])
    expect(applied.size).toBe(2)
  })

  it('other inputs after an unanswered try start a new key', async () => {
    const { http, api } = droppingServer()
    const form = new Submission()
    const transfer = (amount: number) => form.send({ amount }, (idempotencyKey) => api.transferFromReferral({ token_amount: amount }, { idempotencyKey }))
    await Effect.runPromise(Effect.result(transfer(20)))
    await Effect.runPromise(transfer(21))
    const [a, b] = http.requests.map(keyOf)
    expect(b).not.toBe(a)
  })

  type Outcome = 'ok' | 'refused' | 'network' | 'timeout' | '5xx'
  const failureOf = (o: Outcome) =>
    o === 'refused'
      ? new RequestRejected({ status: 400, msg: 'Insufficient balance' })
      : o === 'network'
        ? new NetworkError({})
        : o === 'timeout'
          ? new Timeout({ afterMs: 25_000 })
          : new ServerFailed({ msg: 'Bad gateway' })

  it('law: a submission reuses the key exactly when the one before had the same inputs and no definite answer', () => {
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ inputs: fc.constantFrom('a', 'b'), outcome: fc.constantFrom<Outcome>('ok', 'refused', 'network', 'timeout', '5xx') }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (tries) => {
          let n = 0
          const form = new Submission(() => `k${n++}`)
          const sent: string[] = []
          for (const t of tries)
            await Effect.runPromise(
              Effect.result(
                form.send({ amount: t.inputs }, (key) => {
                  sent.push(key)
                  return t.outcome === 'ok' ? Effect.succeed(key) : Effect.fail(failureOf(t.outcome))
                }),
              ),
            )
          for (let i = 1; i < tries.length; i++) {
            const before = tries[i - 1]!
            const reuse = before.inputs === tries[i]!.inputs && before.outcome !== 'ok' && before.outcome !== 'refused'
            expect(sent[i] === sent[i - 1]).toBe(reuse)
          }
        },
      ),
    )
  })
})
