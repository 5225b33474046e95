import { Schema } from 'effect'
import { describe, expect, it } from 'vitest'
import { FarmingLinkId, type Id, MintId, StakeId, TaskId, toId } from '../../../core/index.ts'
import type { AxiomApi } from '../../../core/index.ts'

describe('ids with a brand per entity', () => {
  it('decode from a JSON number or string to the same canonical string, as Id does', () => {
    for (const schema of [MintId, StakeId, FarmingLinkId, TaskId]) {
      const decode = Schema.decodeUnknownSync(schema as unknown as Schema.Codec<string, unknown>)
      expect([decode(12), decode('12')]).toEqual(['12', '12'])
    }
  })

  it('are refused by the compiler where another entity’s id is due (checked by tsc, not at run time)', () => {
    const mint = toId<MintId>(1)
    const task = toId<TaskId>(2)
    const plain: Id = toId(3)
    // Every entity id is still an Id.
    const asId: Id = mint
    const cancel = (api: Pick<AxiomApi, 'cancelMint' | 'startTask' | 'cancelFarmingLink'>) => {
      void api.cancelMint(mint)
      // @ts-expect-error a task id is not a mint id
      void api.cancelMint(task)
      // @ts-expect-error an id of no entity is not a mint id either
      void api.cancelMint(plain)
      // @ts-expect-error a mint id is not a task id
      void api.startTask({ task_id: mint })
      // @ts-expect-error a stake id is not a farming link id
      void api.cancelFarmingLink(toId<StakeId>(4))
    }
    expect([asId, typeof cancel]).toEqual(['1', 'function'])
  })
})
