import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FrameLocator, Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { errorHaptics, expectText, expectToast, frameEval, nextUser, settled, toastTexts, watchRequests } from './helpers.ts'
import { launch, useStack } from './stack.ts'

/**
 * How errors reach the user: each with the error haptic (spec §8), and maintenance that begins while
 * the user acts as the maintenance page rather than error toasts.
 */
const stack = useStack()
const tmp = mkdtempSync(join(tmpdir(), 'axiom-e2e-feedback-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))


/** Opens the Tasks tab with the photo task ready to start (its Start opens no link). */
const onTasks = async (app: FrameLocator) => {
  await app.getByTestId('tab-tasks').click()
  await expectText(app.getByTestId('task-action-3'), 'Start')
}


describe('the error haptic comes with every error', () => {
  it('a copy the browser refuses: the error toast and the error haptic', async () => {
    const { app, page } = await launch(stack, { user: nextUser() })
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('copy-referral-link').waitFor()
    // The browser refuses to write the clipboard, as it does without the permission.
    await frameEval(app, () => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))
    })
    const before = await errorHaptics(page)
    await app.getByTestId('copy-referral-link').click()
    await expectToast(app, 'error', 'Could not copy. Select the text and copy it by hand.')
    await expect.poll(() => errorHaptics(page)).toBe(before + 1)
    await page.close()
  })

  it('a file that is not an image in the add-photo modal: the message beside the field and the error haptic', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    await app.getByTestId('tab-tasks').click()
    const photoTask = app.getByTestId('task-action-3')
    await photoTask.click()
    await expectText(photoTask, 'Check')
    await photoTask.click()
    await app.getByTestId('add-photo-modal').waitFor()
    const file = join(tmp, 'notes.txt')
    writeFileSync(file, 'not a photo')
    const before = await errorHaptics(page)
    await app.getByTestId('photo-input').setInputFiles(file)
    await expectText(app.getByTestId('photo-error'), 'Choose an image file')
    await expect.poll(() => errorHaptics(page)).toBe(before + 1)
    expect(await app.getByTestId('photo-submit').isDisabled()).toBe(true)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('maintenance met by a call', () => {
  it('an action answered 503 "We are under maintenance" shows the maintenance page at once, no error toast and no error haptic; the app comes back when maintenance is over', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    const inFlight = watchRequests(page)
    await onTasks(app)
    // Only this call meets maintenance: the backend itself (and its maintenance poll) says it is off,
    // so the page can only come from the call's answer.
    stack.proxy.fail('/task/start', { kind: 'status', status: 503, msg: 'We are under maintenance' })
    try {
      const before = await errorHaptics(page)
      await app.getByTestId('task-action-3').click()
      await app.getByTestId('maintenance').waitFor({ timeout: 3_000 })
      // Late answers of calls in flight would show up by the time the app has settled.
      await settled(app, inFlight)
      expect(await toastTexts(app, 'error')).toEqual([])
      expect(await errorHaptics(page)).toBe(before)
    } finally {
      stack.proxy.clear()
    }
    // The next maintenance poll (every 10 s) finds it over and reloads into the app.
    await app.getByTestId('tab-tasks').waitFor({ timeout: 30_000 })
    await expect.poll(() => app.getByTestId('maintenance').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })

  it('the operator switches maintenance on while the user acts: the maintenance page, not one error toast; off again, the app reloads', async () => {
    const { app, page } = await launch(stack, { user: nextUser() })
    const inFlight = watchRequests(page)
    await onTasks(app)
    await stack.server.admin.setMaintenance(true)
    try {
      await app.getByTestId('task-action-3').click()
      await app.getByTestId('maintenance').waitFor({ timeout: 12_000 })
      // Late answers of calls in flight would show up by the time the app has settled.
      await settled(app, inFlight)
      expect(await toastTexts(app, 'error')).toEqual([])
    } finally {
      await stack.server.admin.setMaintenance(false)
    }
    await app.getByTestId('tab-tasks').waitFor({ timeout: 30_000 })
    await expectText(app.getByTestId('task-action-3'), 'Start')
    await page.close()
  })
})
