import { beforeAll, describe, expect, it } from 'vitest'
import { entryOptionsFromEnv } from '../../server/main.ts'
import { newProductionTreasury, productionRefusal } from '../support/production-env.ts'

/** Production and the Streaming API: optional, read from AXIOM_TON_STREAM and AXIOM_TON_STREAM_KEY, https (SSE) or wss (WebSocket) only. */
let prod: Awaited<ReturnType<typeof newProductionTreasury>>
beforeAll(async () => {
  prod = await newProductionTreasury()
})

describe('the stream in production', () => {
  it('is not required: without it the worker polls only', async () => {
    const o = await entryOptionsFromEnv(prod.env({ AXIOM_TON_STREAM: undefined, AXIOM_TON_STREAM_KEY: undefined }))
    expect(o.chain?.stream ?? null).toBeNull()
  })

  it("is given to the worker's chain service with its key when set", async () => {
    const o = await entryOptionsFromEnv(prod.env({ AXIOM_TON_STREAM: 'https://toncenter.com/api/streaming/v2/sse', AXIOM_TON_STREAM_KEY: 'k-1' }))
    expect(o.chain?.stream).toEqual({ url: 'https://toncenter.com/api/streaming/v2/sse', key: 'k-1' })
  })

  it('is refused over plain http (it carries the key)', async () => {
    expect(await productionRefusal(prod.env({ AXIOM_TON_STREAM: 'http://toncenter.com/api/streaming/v2/sse' }))).toMatch(/^AXIOM_TON_STREAM /)
  })

  it('takes the WebSocket transport by its scheme, wss; ws is refused', async () => {
    const o = await entryOptionsFromEnv(prod.env({ AXIOM_TON_STREAM: 'wss://toncenter.com/api/streaming/v2/ws', AXIOM_TON_STREAM_KEY: 'k-2' }))
    expect(o.chain?.stream).toEqual({ url: 'wss://toncenter.com/api/streaming/v2/ws', key: 'k-2' })
    expect(await productionRefusal(prod.env({ AXIOM_TON_STREAM: 'ws://toncenter.com/api/streaming/v2/ws' }))).toMatch(/^AXIOM_TON_STREAM /)
  })
})
