import { beforeAll, describe, expect, it } from 'vitest'
import { entryOptionsFromEnv, optionsFromEnv } from '../../server/main.ts'
import { newProductionTreasury, productionRefusal } from '../support/production-env.ts'

/** AXIOM_NEW_ADDRESS_DELAY through the entry's own reading (optionsFromEnv, and entryOptionsFromEnv in production). */
let production: Awaited<ReturnType<typeof newProductionTreasury>>['env']
beforeAll(async () => {
  production = (await newProductionTreasury()).env
})

/** The reason the production entry refuses `env` with. */
const refused = productionRefusal

describe('AXIOM_NEW_ADDRESS_DELAY', () => {
  it('npm start and the tests: no cooling period unless set; whole seconds, 0 or off for none', () => {
    expect(optionsFromEnv({}).newAddressDelayS).toBeUndefined()
    expect(optionsFromEnv({ AXIOM_NEW_ADDRESS_DELAY: '600' }).newAddressDelayS).toBe(600)
    expect(optionsFromEnv({ AXIOM_NEW_ADDRESS_DELAY: ' 0 ' }).newAddressDelayS).toBe(0)
    expect(optionsFromEnv({ AXIOM_NEW_ADDRESS_DELAY: 'off' }).newAddressDelayS).toBe(0)
    for (const nonsense of ['1h', '-5', '1.5', 'soon', '1e3', '99999999']) {
      expect(() => optionsFromEnv({ AXIOM_NEW_ADDRESS_DELAY: nonsense }), nonsense).toThrow(/AXIOM_NEW_ADDRESS_DELAY must be a whole number of seconds/)
    }
  })

  it("production: an hour unless set, the operator's value when set", async () => {
    expect((await entryOptionsFromEnv(production())).newAddressDelayS).toBe(3600)
    expect((await entryOptionsFromEnv(production({ AXIOM_NEW_ADDRESS_DELAY: '7200' }))).newAddressDelayS).toBe(7200)
  })

  it('production refuses no cooling period, and a value it cannot read, naming the variable', async () => {
    for (const none of ['off', '0', 'OFF']) {
      expect(await refused(production({ AXIOM_NEW_ADDRESS_DELAY: none }))).toBe(
        `AXIOM_NEW_ADDRESS_DELAY=${none} lets a sale go at once to an address its user never proved: production keeps the cooling period (default 3600 s; set a number of seconds)`,
      )
    }
    expect(await refused(production({ AXIOM_NEW_ADDRESS_DELAY: 'an hour' }))).toMatch(/^AXIOM_NEW_ADDRESS_DELAY must be a whole number of seconds up to 2592000 \(such as 3600\), or 0 for none; got "an hour"$/)
  })
})
