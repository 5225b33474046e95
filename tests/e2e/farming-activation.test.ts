import { expect, it } from 'vitest'
import { expectText, expectToast, nextUser, settled, watchRequests } from './helpers.ts'
import { api, launch, makeMember, useStack } from './stack.ts'

const stack = useStack()

it('an activated farming bond appears live in the dashboard with the via-Farming toast', async () => {
  const a = nextUser()
  await makeMember(stack, a)
  await stack.server.admin.credit(a, '30', 'referral_balance')
  const link = await api<{ activation_code: string }>(stack, a, 'POST', '/farming/create', {
    amount: 5, days: 10, count_activations: 1, from_ref_balance: true, from_task_balance: false, is_multilink: false, is_for_me: false,
  })
  const b = nextUser()
  const { app, page } = await launch(stack, { user: b, path: `/?farm_code=${link.activation_code}` })
  await expectText(app.getByTestId('activation-title'), 'You get it for 10 days')
  // The toast comes with the activation and lasts 3 s: look for it while the modal is open.
  await expectToast(app, 'success', 'New Bond created via Farming')
  await app.getByTestId('activation-close').click()
  const mints = await api<{ items: Array<{ id: number }> }>(stack, b, 'GET', '/mint/')
  await expectText(app.getByTestId(`mint-status-${mints.items[0]!.id}`), 'Active')
  await page.close()
})

it('a friend who is not yet a member sees only the join modal; after joining and Done, the activation result', async () => {
  const a = nextUser()
  await makeMember(stack, a)
  await stack.server.admin.credit(a, '30', 'referral_balance')
  const link = await api<{ activation_code: string }>(stack, a, 'POST', '/farming/create', {
    amount: 7, days: 10, count_activations: 1, from_ref_balance: true, from_task_balance: false, is_multilink: false, is_for_me: false,
  })
  const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
  const inFlight = watchRequests(page)
  const activationCalls: string[] = []
  const answered: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/farming/activation-status')) activationCalls.push(r.url())
  })
  page.on('response', (r) => answered.push(new URL(r.url()).pathname))
  // The farming link as the app shares it, tapped by a new user.
  const b = nextUser()
  const { app, errors } = await launch(stack, { user: b, link: `https://t.me/axiom_dev_bot/app?startapp=farm_${link.activation_code}`, member: false, page })
  await app.getByTestId('community-modal').waitFor()
  await app.getByTestId('screen-dashboard').waitFor()
  // The lists have loaded (the check would go out right after them) and the app has settled: still no
  // activation sheet, and the code was not checked.
  await expect.poll(() => ['/api/mint/', '/api/farming/', '/api/task/list', '/api/user/referrals'].every((p) => answered.includes(p))).toBe(true)
  await settled(app, inFlight)
  expect(await app.getByTestId('farming-activation-modal').count()).toBe(0)
  expect(activationCalls).toEqual([])

  await app.getByTestId('community-join').click()
  await expectText(app.getByTestId('community-done'), 'Done')
  await app.getByTestId('community-done').click()
  // Reloaded as a member: the code is checked now, and its outcome is on screen, with nothing over it.
  await expectText(app.getByTestId('activation-title'), 'You get it for 10 days')
  expect(await app.getByTestId('community-modal').count()).toBe(0)
  await expectToast(app, 'success', 'New Bond created via Farming')
  expect(activationCalls).toHaveLength(1)
  expect(errors).toEqual([])
  await page.close()
})
