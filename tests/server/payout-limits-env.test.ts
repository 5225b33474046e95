import { beforeAll, describe, expect, it } from 'vitest'
import { entryOptionsFromEnv, optionsFromEnv } from '../../server/main.ts'
import { DEFAULT_PRODUCTION_PAYOUT_LIMITS, NO_PAYOUT_LIMITS } from '../../server/config/config.ts'
import { newProductionTreasury, productionRefusal } from '../support/production-env.ts'

/** The payout limits from the environment, through the production entry's own reading (entryOptionsFromEnv). */
let production: Awaited<ReturnType<typeof newProductionTreasury>>['env']
beforeAll(async () => {
  production = (await newProductionTreasury()).env
})

/** The reason the production entry refuses `env` with. */
const refused = productionRefusal

describe('payout limits from the environment', () => {
  it('npm start and the tests: none unless set', () => {
    expect(optionsFromEnv({}).payoutLimits).toEqual(NO_PAYOUT_LIMITS)
  })

  it('decimal TON read exactly to the nanoton (no float), seconds for the lag, 0 allowed for the reserve only', () => {
    const l = optionsFromEnv({
      AXIOM_PAYOUT_MAX_SALE: '0.1',
      AXIOM_PAYOUT_MAX_USER_DAY: '12.000000001',
      AXIOM_PAYOUT_MAX_HOUR: '999999.123456789',
      AXIOM_PAYOUT_MAX_LAG_S: '120',
      AXIOM_TREASURY_RESERVE: '0',
    }).payoutLimits!
    expect(l).toEqual({ maxSaleNano: 100_000_000n, maxUserDayNano: 12_000_000_001n, maxHourNano: 999_999_123_456_789n, maxLagS: 120, treasuryReserveNano: 0n })
    expect(() => optionsFromEnv({ AXIOM_PAYOUT_MAX_SALE: 'ten' })).toThrow(/AXIOM_PAYOUT_MAX_SALE/)
    expect(() => optionsFromEnv({ AXIOM_PAYOUT_MAX_SALE: '0' })).toThrow(/AXIOM_PAYOUT_MAX_SALE/)
    expect(() => optionsFromEnv({ AXIOM_PAYOUT_MAX_HOUR: '0.0000000001' })).toThrow(/AXIOM_PAYOUT_MAX_HOUR/)
    expect(() => optionsFromEnv({ AXIOM_PAYOUT_MAX_LAG_S: '1.5' })).toThrow(/AXIOM_PAYOUT_MAX_LAG_S/)
  })

  it("production: the safe defaults for those unset, the operator's values for those set", async () => {
    expect((await entryOptionsFromEnv(production())).payoutLimits).toEqual(DEFAULT_PRODUCTION_PAYOUT_LIMITS)
    expect((await entryOptionsFromEnv(production({ AXIOM_PAYOUT_MAX_SALE: '20', AXIOM_TREASURY_RESERVE: '2.5' }))).payoutLimits).toEqual({
      ...DEFAULT_PRODUCTION_PAYOUT_LIMITS,
      maxSaleNano: 20_000_000_000n,
      treasuryReserveNano: 2_500_000_000n,
    })
  })

  it('production refuses a limit turned off, a value it cannot read, and a sale limit over the hour limit', async () => {
    for (const name of ['AXIOM_PAYOUT_MAX_SALE', 'AXIOM_PAYOUT_MAX_USER_DAY', 'AXIOM_PAYOUT_MAX_HOUR', 'AXIOM_PAYOUT_MAX_LAG_S', 'AXIOM_TREASURY_RESERVE']) {
      expect(await refused(production({ [name]: 'off' }))).toContain(`${name}=off`)
    }
    expect(await refused(production({ AXIOM_PAYOUT_MAX_HOUR: 'lots' }))).toContain('AXIOM_PAYOUT_MAX_HOUR')
    expect(await refused(production({ AXIOM_PAYOUT_MAX_SALE: '2000' }))).toContain('AXIOM_PAYOUT_MAX_SALE is over AXIOM_PAYOUT_MAX_HOUR')
  })
})
