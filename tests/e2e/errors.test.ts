import { describe, expect, it } from 'vitest'
import { expectText, expectToast, nextUser, toastTexts } from './helpers.ts'
import { launch, makeMember, useStack } from './stack.ts'

/** The §8 error toasts through the fault proxy, and with the backend gone. The last test stops the backend. */
const stack = useStack()

const NETWORK = 'Error: Network Error! Code: ERR_NETWORK'

describe('error toasts', () => {
  it('a 500 on /task/list: the server message in a top-left toast, and an empty list', async () => {
    stack.proxy.fail('/task/list', { kind: 'status', status: 500, msg: 'Task service is down' })
    try {
      const { app, page } = await launch(stack, { user: nextUser() })
      await expectToast(app, 'error', 'Error: Task service is down')
      // Top-left in the app's frame.
      const box = (await app.getByTestId('toast-error').first().boundingBox())!
      const frame = (await page.locator('iframe').boundingBox())!
      expect(box.x - frame.x).toBeLessThan(frame.width / 4)
      expect(box.y - frame.y).toBeLessThan(frame.height / 4)
      await app.getByTestId('tab-tasks').click()
      await expectText(app.getByTestId('tasks-empty'), 'No tasks right nowNew tasks appear here.')
      expect(await app.getByTestId('badge-tasks').count()).toBe(0)
      await page.close()
    } finally {
      stack.proxy.clear()
    }
  })

  it('a slow call shows a loading state until it answers', async () => {
    stack.proxy.fail('/operations/history', { kind: 'delay', ms: 2500 })
    try {
      const { app, page, errors } = await launch(stack, { user: nextUser() })
      await app.getByTestId('link-history').click()
      await app.getByTestId('screen-history').waitFor()
      await app.getByTestId('screen-history').locator('[aria-busy="true"]').waitFor()
      expect(await app.getByTestId('operations-list').count()).toBe(0)
      await app.getByTestId('operations-list').waitFor()
      expect(await app.getByTestId('screen-history').locator('[aria-busy="true"]').count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    } finally {
      stack.proxy.clear()
    }
  })

  it('a dropped connection on an action: the network toast', async () => {
    const { app, page } = await launch(stack, { user: nextUser() })
    await app.getByTestId('tab-tasks').click()
    await expectText(app.getByTestId('task-action-3'), 'Start')
    // The connection drops between the app and the server. (The fault proxy's 'drop' sits behind
    // vite preview's proxy, which answers the browser 502 instead, so the drop is made at the browser.)
    await page.route('**/api/task/start', (route) => route.abort('connectionreset'))
    await app.getByTestId('task-action-3').click()
    await expectToast(app, 'error', NETWORK)
    await expectText(app.getByTestId('task-action-3'), 'Start')
    // An error gives an error haptic in the host.
    await expect.poll(() => page.getByTestId('host-haptic').textContent()).toContain('error')
    // Once the network is back the same action works.
    await page.unroute('**/api/task/start')
    await app.getByTestId('task-action-3').click()
    await expectText(app.getByTestId('task-action-3'), 'Check')
    await page.close()
  })

  it('a connection dropped by the backend side: an error toast and no change', async () => {
    const { app, page } = await launch(stack, { user: nextUser() })
    await app.getByTestId('tab-tasks').click()
    await expectText(app.getByTestId('task-action-3'), 'Start')
    stack.proxy.fail('/task/start', { kind: 'drop' })
    try {
      await app.getByTestId('task-action-3').click()
      await expect.poll(() => toastTexts(app, 'error'), { timeout: 30_000 }).toHaveLength(1)
      await expectText(app.getByTestId('task-action-3'), 'Start')
    } finally {
      stack.proxy.clear()
    }
    await page.close()
  })

  it('with the backend stopped, the next action shows an error toast and changes nothing; offline, the network toast', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await stack.server.admin.credit(user, '10', 'referral_balance')
    const { app, page } = await launch(stack, { user })
    // A phone without biometrics: the transfer is sent at once, with no check before it.
    await page.getByTestId('host-biometry').selectOption('unavailable')
    await app.getByTestId('tab-referral').click()
    await expectText(app.getByTestId('referral-balance-amount'), '10.00')
    await stack.server.close()
    await app.getByTestId('open-transfer').click()
    await app.getByTestId('transfer-amount-max').click()
    await app.getByTestId('transfer-submit').click()
    // Behind vite preview's proxy a stopped backend answers 502 (as a reverse proxy would in production).
    await expectToast(app, 'error', 'Error: Request failed with status code 502')
    await expectText(app.getByTestId('referral-balance-amount'), '10.00')
    // The server cannot be reached at all (no proxy answers): the §8 network toast.
    await page.route('**/api/**', (route) => route.abort('connectionrefused'))
    await app.getByTestId('transfer-submit').click()
    await expectToast(app, 'error', NETWORK)
    await expectText(app.getByTestId('referral-balance-amount'), '10.00')
    await page.close()
  })
})
