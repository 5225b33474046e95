import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { expectText, nextUser, toastTexts } from './helpers.ts'
import { launch, useStack } from './stack.ts'

/** Maintenance that begins while the user acts: calls answered 503 switch the app to its maintenance page. */
const stack = useStack()

/** The error haptics the host received from the app so far. */
const errorHaptics = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      (window as unknown as { __axiomHost: { events: Array<{ dir: string; type: string; data: { notification_type?: string } | undefined }> } }).__axiomHost.events.filter(
        (e) => e.dir === 'in' && e.type === 'web_app_trigger_haptic_feedback' && e.data?.notification_type === 'error',
      ).length,
  )

/** Opens the Tasks tab with the first task ready to start. */
const onTasks = async (app: FrameLocator) => {
  await app.getByTestId('tab-tasks').click()
  await expectText(app.getByTestId('task-action-1'), 'Start')
}

/** Nothing arrives for a moment: late answers of calls in flight would show up meanwhile. */
const settle = () => new Promise((r) => setTimeout(r, 1_500))

describe('maintenance met by a call', () => {
  it('an action answered 503 "We are under maintenance" shows the maintenance page at once, no error toast and no error haptic; the app comes back when maintenance is over', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    await onTasks(app)
    // Only this call meets maintenance: the backend itself (and its maintenance poll) says it is off,
    // so the page can only come from the call's answer.
    stack.proxy.fail('/task/start', { kind: 'status', status: 503, msg: 'We are under maintenance' })
    try {
      const before = await errorHaptics(page)
      await app.getByTestId('task-action-1').click()
      await app.getByTestId('maintenance').waitFor({ timeout: 3_000 })
      await settle()
      expect(await toastTexts(app, 'error')).toEqual([])
      expect(await errorHaptics(page)).toBe(before)
    } finally {
      stack.proxy.clear()
    }
    // The next maintenance poll (every 10 s) finds it over and reloads into the app.
    await app.getByTestId('tab-tasks').waitFor({ timeout: 15_000 })
    await expect.poll(() => app.getByTestId('maintenance').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })

  it('the operator switches maintenance on while the user acts: the maintenance page, not one error toast; off again, the app reloads', async () => {
    const { app, page } = await launch(stack, { user: nextUser() })
    await onTasks(app)
    stack.server.admin.setMaintenance(true)
    try {
      await app.getByTestId('task-action-1').click()
      await app.getByTestId('maintenance').waitFor({ timeout: 12_000 })
      await settle()
      expect(await toastTexts(app, 'error')).toEqual([])
    } finally {
      stack.server.admin.setMaintenance(false)
    }
    await app.getByTestId('tab-tasks').waitFor({ timeout: 15_000 })
    await expectText(app.getByTestId('task-action-1'), 'Start')
    await page.close()
  })
})
