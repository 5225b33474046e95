import { describe, expect, it } from 'vitest'
import { type ApiError, NetworkError, RequestRejected, ServerFailed, Timeout, toId } from '../../../core/index.ts'
import { FarmingState } from '../../../ui/features/farming/farming-state.ts'
import { SellState } from '../../../ui/features/sell/sell-state.ts'
import { aMint } from '../../core/fakes/records.ts'
import { stateHarness } from './harness.ts'

type H = ReturnType<typeof stateHarness>
type Method = 'createMint' | 'createStake' | 'createFarmingLink' | 'createWithdraw' | 'transferFromReferral'

/** Each form that creates, with how a user submits it (the inputs picked by `n`) and the API call it makes. */
const forms: Array<{ name: string; method: Method; make: (h: H) => (n: number) => Promise<unknown> }> = [
  {
    name: 'bond',
    method: 'createMint',
    make: (h) => {
      // The user then declines to pay: the mint's answer came, so its key is spent all the same.
      h.wallet.signOutcome = 'rejects'
      const b = h.bonds()
      return (n) => b.bondList.buy(100 + n, 30)
    },
  },
  {
    name: 'stake',
    method: 'createStake',
    make: (h) => {
      h.api.mintList = [aMint({ id: 5, status: 'active' }), aMint({ id: 6, status: 'active' })]
      const b = h.bonds()
      return (n) => b.stakeList.stake(toId(5 + n))
    },
  },
  {
    name: 'farming link',
    method: 'createFarmingLink',
    make: (h) => {
      const f = new FarmingState(h.uc, h.bonds())
      return (n) => f.create({ amount: 10 + n, days: 30, activations: 1, multiUse: false, forMe: false })
    },
  },
  {
    name: 'sale',
    method: 'createWithdraw',
    make: (h) => {
      const s = new SellState(h.uc, { refresh: async () => null })
      return (n) => s.sell({ amount: 5 + n, address: `0:${'12'.repeat(32)}`, fromReferral: false })
    },
  },
  {
    name: 'referral transfer',
    method: 'transferFromReferral',
    make: (h) => {
      const s = new SellState(h.uc, { refresh: async () => null })
      return (n) => s.transfer(5 + n)
    },
  },
]

const unanswered: ApiError[] = [new NetworkError({}), new Timeout({ afterMs: 25_000 }), new ServerFailed({ msg: 'Bad gateway' })]

describe('the forms that create: one Idempotency-Key per submission', () => {
  for (const form of forms)
    for (const failure of unanswered)
      it(`${form.name}: a tap again after ${failure._tag} sends the same key; an answer, a refusal or other inputs a new one`, async () => {
        const h = stateHarness()
        const submit = form.make(h)
        const keys = () => h.api.callsTo(form.method).map((c) => (c.options as { idempotencyKey?: string } | undefined)?.idempotencyKey)

        h.api.failWith(form.method, failure)
        await submit(0)
        await submit(0)
        h.api.recover(form.method)
        await submit(0)
        // Answered: the same inputs again are a new submission.
        await submit(0)
        // Refused: a definite answer too.
        h.api.failWith(form.method, new RequestRejected({ status: 400, msg: 'Insufficient balance' }))
        await submit(1)
        h.api.recover(form.method)
        await submit(1)
        // Unanswered, then the user changes the inputs: a new key.
        h.api.failWith(form.method, failure)
        await submit(0)
        h.api.recover(form.method)
        await submit(1)

        const k = keys()
        expect(k).toHaveLength(8)
        expect(k.every((x) => typeof x === 'string' && x.length > 0)).toBe(true)
        expect(k[1]).toBe(k[0])
        expect(k[2]).toBe(k[0])
        expect(new Set([k[2], k[3], k[4], k[5], k[6], k[7]]).size).toBe(6)
      })
})
