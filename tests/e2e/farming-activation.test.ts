import { it } from 'vitest'
import { expectText, expectToast, nextUser } from './helpers.ts'
import { api, launch, makeMember, useStack } from './stack.ts'

const stack = useStack()

it('an activated farming bond appears live in the dashboard with the via-Farming toast', async () => {
  const a = nextUser()
  await makeMember(stack, a)
  stack.server.admin.credit(a, '30', 'referral_balance')
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
