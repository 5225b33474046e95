import { describe, expect, it } from 'vitest'
import { expectText, nextUser } from './helpers.ts'
import { launch, useStack } from './stack.ts'

/**
 * The view models of the screens beyond the dashboard come in a chunk of their own, after the first
 * paint (ui/features/screen-states.ts). While it is slow, the dashboard is there without the tabs'
 * badges, and a screen that needs it shows the loading fallback, not an error; once it is in, both are.
 */
const stack = useStack()

describe('the other screens’ view models, arriving late', () => {
  it('the dashboard paints without them; a screen opened meanwhile shows it is loading, then itself, with the badge', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const asked: string[] = []
    await page.route(/\/assets\/screen-states-[^/]*\.js$/, async (route) => {
      asked.push(route.request().url())
      await held
      await route.continue()
    })
    const { app, errors } = await launch(stack, { user: nextUser(), page })
    await app.getByTestId('screen-dashboard').waitFor()
    // Asked for once the first screen has painted; held here.
    await expect.poll(() => asked.length).toBe(1)
    expect(await app.getByTestId('badge-tasks').count()).toBe(0)

    await app.getByTestId('tab-tasks').click()
    await app.getByTestId('screen-loading').waitFor()
    expect(await app.getByTestId('screen-tasks').count()).toBe(0)

    release()
    await app.getByTestId('screen-tasks').waitFor()
    await app.getByTestId('tasks-list').waitFor()
    // A member has done the community task, its reward not yet claimed: three to do (as tasks-referrals.test.ts).
    await expectText(app.getByTestId('badge-tasks'), '3')
    expect(await app.getByTestId('screen-loading').count()).toBe(0)
    expect(asked).toHaveLength(1)
    expect(errors).toEqual([])
    await page.close()
  })
})
