import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto'
import { WalletContractV5R1 } from '@ton/ton'
import { beforeAll, describe, expect, it } from 'vitest'
import { entryOptionsFromEnv, optionsFromEnv, ProductionRefused } from '../../server/main.ts'
import { DEFAULT_PRODUCTION_METRICS_PORT } from '../../server/observability/metrics-env.ts'
import { productionEnv } from '../support/production-env.ts'

/**
 * AXIOM_METRICS_PORT through the entry's own reading: no metrics listener unless asked outside
 * production (npm start and the tests need none), 9464 in production unless set or `off`, never the
 * API's port; AXIOM_METRICS_HOST, else HOST, is the address it binds.
 */
let production: (extra?: NodeJS.ProcessEnv) => NodeJS.ProcessEnv

beforeAll(async () => {
  const words = await mnemonicNew()
  const { publicKey } = await mnemonicToPrivateKey(words)
  const treasury = WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -239 } }).address.toString({ testOnly: false })
  // productionEnv sets AXIOM_METRICS_PORT=0 for the processes tests start; production's own default is read without it.
  production = (extra = {}) => productionEnv({ words, treasury, jwtSecret: 'q8Zr1v3N0pXk2Lw9Yt6Hs4Bd7Mf5Jc1Ge8Ua0Ri3Oy=' }, { AXIOM_METRICS_PORT: undefined, ...extra })
})

describe('AXIOM_METRICS_PORT', () => {
  it('is off outside production unless set', () => {
    expect(optionsFromEnv({}).metrics).toBeNull()
    expect(optionsFromEnv({ AXIOM_METRICS_PORT: 'off' }).metrics).toBeNull()
    expect(optionsFromEnv({ AXIOM_METRICS_PORT: '9100' }).metrics).toEqual({ port: 9100, host: '127.0.0.1' })
    expect(optionsFromEnv({ AXIOM_METRICS_PORT: '9100', HOST: '0.0.0.0' }).metrics).toEqual({ port: 9100, host: '0.0.0.0' })
    expect(optionsFromEnv({ AXIOM_METRICS_PORT: '9100', HOST: '0.0.0.0', AXIOM_METRICS_HOST: '10.0.0.5' }).metrics).toEqual({ port: 9100, host: '10.0.0.5' })
  })

  it('refuses a value that is no port, and the API port itself', () => {
    for (const bad of ['-1', '65536', 'nine', '9464x', '1.5']) expect(() => optionsFromEnv({ AXIOM_METRICS_PORT: bad }), bad).toThrow(/AXIOM_METRICS_PORT must be a port/)
    expect(() => optionsFromEnv({ AXIOM_METRICS_PORT: '8787' })).toThrow(/the API's PORT \(8787\)/)
    expect(() => optionsFromEnv({ AXIOM_METRICS_PORT: '9000', PORT: '9000' })).toThrow(/the API's PORT/)
  })

  it(`is on in production at ${DEFAULT_PRODUCTION_METRICS_PORT}, on the instance's address, unless set or off`, async () => {
    expect((await entryOptionsFromEnv(production())).metrics).toEqual({ port: DEFAULT_PRODUCTION_METRICS_PORT, host: '127.0.0.1' })
    expect((await entryOptionsFromEnv(production({ HOST: '0.0.0.0' }))).metrics).toEqual({ port: DEFAULT_PRODUCTION_METRICS_PORT, host: '0.0.0.0' })
    expect((await entryOptionsFromEnv(production({ AXIOM_METRICS_PORT: '9500' }))).metrics).toEqual({ port: 9500, host: '127.0.0.1' })
    expect((await entryOptionsFromEnv(production({ AXIOM_METRICS_PORT: 'off' }))).metrics).toBeNull()
    // An api instance's too (the worker's environment, without the key).
    expect((await entryOptionsFromEnv(production({ AXIOM_ROLE: 'api', AXIOM_TREASURY_MNEMONIC_FILE: undefined, HOST: '0.0.0.0' }))).metrics).toEqual({
      port: DEFAULT_PRODUCTION_METRICS_PORT,
      host: '0.0.0.0',
    })
  })

  it("production refuses the metrics on the API's port, with one line", async () => {
    const refused = await entryOptionsFromEnv(production({ PORT: '9464' })).then(
      () => null,
      (e: unknown) => e,
    )
    expect(refused).toBeInstanceOf(ProductionRefused)
    expect((refused as Error).message).toBe("AXIOM_METRICS_PORT is the API's PORT (9464): the metrics need a port of their own, which nginx does not proxy")
  })
})
