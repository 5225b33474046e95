import { describe, expect, it } from 'vitest'
import { nextUser, text } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/** A platform whose only reward paid so far is a fraction of a token (a fresh backend of its own). */
const stack = useStack()

describe('the platform stats card on a young platform', () => {
  it('shows the first, tiny rewards paid as a non-zero figure, not 0.00', async () => {
    const user = nextUser()
    await makeMember(stack, user, 'Alice')
    const bond = await activeBond(stack, user, 1, 10)
    // A bond staked a second or more after it started has earned a little, paid to the main balance.
    await new Promise((r) => setTimeout(r, 1_500))
    await api(stack, user, 'POST', '/staking/create', { mint_id: bond })
    const wire = await api<{ total_rewards_paid: string }>(stack, user, 'GET', '/stats/financial')
    expect(Number(wire.total_rewards_paid)).toBeGreaterThan(0)
    expect(Number(wire.total_rewards_paid)).toBeLessThan(0.01)

    const { app, page, errors } = await launch(stack, { user, name: 'Alice' })
    const shown = app.getByTestId('stat-total_rewards_paid')
    await shown.waitFor()
    await expect.poll(() => text(shown)).toMatch(/^(<0\.000001|0\.\d{4,6}) AXIOM$/)
    expect(errors).toEqual([])
    await page.close()
  })
})
