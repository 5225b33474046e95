import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN as CLI_DEV_BOT_TOKEN } from '../../cli/dev-init-data.ts'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { signInitDataFor } from '../support/init-data.ts'
import { type CliStack, type CliUser, freshId, Sink, SOME_ADDRESS, startCliStack } from './support.ts'

let stack: CliStack

beforeAll(async () => {
  stack = await startCliStack()
})
afterAll(() => stack.close())

/** A user logged in with `login --dev-user`. */
const loggedIn = async (name?: string): Promise<CliUser & { id: number }> => {
  const user = stack.user()
  const id = freshId()
  const r = await user.run(['login', '--dev-user', String(id), ...(name ? ['--name', name] : []), '--json'])
  expect(r.code, r.stderr).toBe(0)
  return Object.assign(user, { id })
}

describe('help and usage', () => {
  it('lists every command, and explains one', async () => {
    const u = stack.user()
    const all = await u.run(['help'])
    expect(all.code).toBe(0)
    for (const c of ['login', 'me', 'balances', 'mints', 'plans', 'bond', 'cancel', 'stake', 'farm create', 'farm list', 'farm cancel', 'farm activate', 'sell', 'transfer', 'tasks', 'tasks start', 'tasks validate', 'tasks claim', 'referrals', 'price', 'candles', 'history', 'watch', 'logout', 'wallet connect', 'wallet status', 'wallet disconnect'])
      expect(all.stdout).toContain(`axiom ${c}`)
    const one = await u.run(['help', 'farm', 'create'])
    expect(one.code).toBe(0)
    expect(one.stdout).toContain('--activations K')
    expect((await u.run(['bond', '--help'])).stdout).toContain('axiom bond 200 --days 30')
  })

  it('exits 2 with usage for no command, an unknown one, or bad options', async () => {
    const u = stack.user()
    expect((await u.run([])).code).toBe(2)
    const unknown = await u.run(['frobnicate'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown command "frobnicate"')
    const badOption = await u.run(['me', '--colour'])
    expect(badOption.code).toBe(2)
    expect(badOption.stderr).toMatch(/Unknown option '--colour'/)
    expect((await u.run(['farm'])).code).toBe(2)
    const wallet = await u.run(['wallet'])
    expect(wallet.code).toBe(2)
    expect(wallet.stderr).toContain('wallet needs one of: connect, status, disconnect')
    expect((await u.run(['me', 'extra'])).stderr).toContain('Unexpected argument "extra"')
  })

  it('the dev bot token is the reference backend one', () => {
    expect(CLI_DEV_BOT_TOKEN).toBe(DEV_BOT_TOKEN)
  })
})

describe('login, me, balances, logout', () => {
  it('refuses account commands before login, with exit 3', async () => {
    const r = await stack.user().run(['me'])
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('Not logged in')
    expect(r.stdout).toBe('')
  })

  it('logs in as a dev user and shows the account', async () => {
    const u = await loggedIn('Alice')
    const me = await u.run(['me', '--json'])
    expect(me.code).toBe(0)
    expect(me.json()).toMatchObject({ balance_token: 100, ref: { level: 0 }, community_participation: false })
    const human = await u.run(['me'])
    expect(human.stdout).toMatch(/Balance\s+100\.00 AXIOM/)
    const balances = await u.run(['balances', '--json'])
    expect(balances.json()).toEqual({ balance_token: 100, task_balance: 0, referral_balance: 0 })
    expect((await u.run(['balances'])).stdout).toMatch(/main\s+100\.00/)
    const users = await stack.server.admin.users()
    expect(users.find((x) => x.telegram_id === String(u.id))?.name).toBe('Alice')
  })

  it('logs in with raw init data and a referral code; the referrer sees the referral', async () => {
    const referrer = await loggedIn()
    const code = (await referrer.run(['me', '--json'])).json().ref_code as string
    const u = stack.user()
    const id = freshId()
    const initData = signInitDataFor({ id, first_name: 'Bob' }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN)
    const r = await u.run(['login', initData, '--ref', code, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({ user_id: String(id), balance_token: 100 })
    const refs = await referrer.run(['referrals', '--json'])
    expect(refs.json()).toMatchObject({ referrals: [{ name: 'Bob' }], new: '+1' })
    // Seen: the badge is gone the next time.
    expect((await referrer.run(['referrals', '--json'])).json().new).toBeNull()
    expect((await referrer.run(['referrals'])).stdout).toContain('Bob')
  })

  it('init data launched from a farming link registers with no referral code and says how to activate it', async () => {
    const u = stack.user()
    const id = freshId()
    const initData = signInitDataFor({ id, first_name: 'Fay' }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN, { start_param: 'farm_K7Q2M9XW4P' })
    const human = await u.run(['login', initData])
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toContain('This launch came from a farming link: axiom farm activate K7Q2M9XW4P')
    expect((await u.run(['me', '--json'])).json()).toMatchObject({ balance_token: 100 })
    // --ref takes referral codes only: a farming link's start parameter is refused with the way to use it.
    const wrong = await stack.user().run(['login', '--dev-user', String(freshId()), '--ref', 'farm_K7Q2M9XW4P'])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('axiom farm activate K7Q2M9XW4P')
  })

  it('refuses init data that is not init data (2) or not signed by the bot (3)', async () => {
    const u = stack.user()
    const junk = await u.run(['login', 'hello'])
    expect(junk.code).toBe(2)
    const forged = signInitDataFor({ id: freshId(), first_name: 'Eve' }, Math.floor(Date.now() / 1000), '1:not-the-bot')
    const refused = await u.run(['login', forged])
    expect(refused.code).toBe(3)
    expect(refused.stderr).toContain('Invalid WebApp init data')
    expect((await u.run(['me'])).code).toBe(3)
  })

  it('signs in again from the stored init data when the tokens are gone, and logs out', async () => {
    const u = await loggedIn()
    writeFileSync(join(u.home, 'session.json'), '{}')
    expect((await u.run(['balances', '--json'])).code).toBe(0)
    const out = await u.run(['logout'])
    expect(out.code).toBe(0)
    expect((await u.run(['me'])).code).toBe(3)
  })

  it('a different user on the same AXIOM_HOME replaces the first', async () => {
    const u = await loggedIn()
    const other = freshId()
    const r = await u.run(['login', '--dev-user', String(other), '--json'])
    expect(r.code).toBe(0)
    expect(r.json().user_id).toBe(String(other))
  })
})

describe('bonds and stakes', () => {
  it('plans lists the active plans by days', async () => {
    const u = await loggedIn()
    const r = await u.run(['plans', '--json'])
    expect(r.json().map((p: { days: number }) => p.days)).toEqual([10, 30, 60, 90, 180])
    expect((await u.run(['plans'])).stdout).toMatch(/DAYS\s+% \/ DAY\n\s+10\s+0\.5/)
  })

  it('bond prints the payment; paid, it is active, earns, and can be staked', async () => {
    const u = await loggedIn()
    const b = await u.run(['bond', '200', '--days', '30', '--json'])
    expect(b.code, b.stderr).toBe(0)
    const { mint, payment } = b.json()
    expect(mint).toMatchObject({ status: 'pending', amount_token: 200, tariff_days: 30 })
    expect(payment).toMatchObject({ comment: `axiom:mint:${mint.id}` })
    expect(Number(payment.amount_ton)).toBeCloseTo(Number(payment.amount_nano) / 1e9)
    expect(payment.link).toContain(`amount=${payment.amount_nano}`)
    const human = await u.run(['bond', '10', '--days', '10'])
    expect(human.stdout).toMatch(/Pay to\s+0:7a1c/)
    expect(human.stdout).toMatch(/Valid until/)

    // Only the newest pending bond is kept (the core's pending rule).
    const pending = (await u.run(['mints', '--json'])).json()
    expect(pending).toHaveLength(1)

    await stack.server.markMintPaid(mint.id)
    const mints = (await u.run(['mints', '--json'])).json()
    const active = mints.find((m: { id: number }) => m.id === mint.id)
    expect(active).toMatchObject({ status: 'active' })
    expect(typeof active.reward).toBe('number')
    expect((await u.run(['mints'])).stdout).toMatch(new RegExp(`${mint.id}\\s+active\\s+200\\.00\\s+30`))

    const s = await u.run(['stake', String(mint.id), '--json'])
    expect(s.code, s.stderr).toBe(0)
    expect(s.json()).toMatchObject({ status: 'active', total_amount: 200, tariff_days: 30 })
    const stakes = (await u.run(['stakes', '--json'])).json()
    expect(stakes).toHaveLength(1)
    expect((await u.run(['mints', '--json'])).json().find((m: { id: number }) => m.id === mint.id).status).toBe('move_to_staking')
  })

  it('cancel cancels a bond; a refused cancel shows the server message with exit 1', async () => {
    const u = await loggedIn()
    const { mint } = (await u.run(['bond', '50', '--days', '10', '--json'])).json()
    const c = await u.run(['cancel', String(mint.id), '--json'])
    expect(c.code).toBe(0)
    expect(c.json().status).toBe('canceled')
    const again = await u.run(['cancel', String(mint.id)])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/Error: .*cancel/i)
    const missing = await u.run(['cancel', '999999'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('Error: Bond not found')
  })

  it('refuses bad bond input before sending anything', async () => {
    const u = await loggedIn()
    const before = await stack.server.admin.snapshot()
    for (const argv of [['bond', 'abc', '--days', '30'], ['bond', '10'], ['bond', '10', '--days', 'x'], ['bond', '0', '--days', '30'], ['cancel', 'x'], ['stake', '-1']]) {
      const r = await u.run(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr).toMatch(/Error: /)
    }
    expect(await stack.server.admin.snapshot()).toBe(before)
  })
})

describe('farming', () => {
  it('creates, lists, activates once, and cancels a link', async () => {
    const owner = await loggedIn()
    await stack.server.admin.credit(owner.id, '50', 'task_balance')
    const created = await owner.run(['farm', 'create', '2', '--days', '10', '--activations', '3', '--multi', '--from', 'task', '--json'])
    expect(created.code, created.stderr).toBe(0)
    const link = created.json()
    expect(link).toMatchObject({ amount: 2, days: 10, count_activations: 3, from_task_balance: true, is_multilink: true, is_for_me: false })
    expect((await owner.run(['farm', 'list', '--json'])).json()).toHaveLength(1)
    expect((await owner.run(['farm', 'list'])).stdout).toContain(link.activation_code)

    const friend = await loggedIn()
    const act = await friend.run(['farm', 'activate', link.activation_code, '--json'])
    expect(act.code, act.stderr).toBe(0)
    expect(act.json()).toMatchObject({ status: 'ACTIVE', mint_details: { tariff_days: 10, amount_token: 2 } })
    // Once per code on this machine (the core's rule): no second call.
    expect((await friend.run(['farm', 'activate', link.activation_code, '--json'])).json()).toMatchObject({ already_checked: true })
    expect((await friend.run(['mints', '--json'])).json()[0]).toMatchObject({ status: 'active', amount_token: 2 })

    const cancelled = await owner.run(['farm', 'cancel', String(link.id), '--json'])
    expect(cancelled.json().status).toBe('revoked')
    // 50 − 3 × 2 funded + 2 × 2 unused refunded.
    expect((await owner.run(['balances', '--json'])).json().task_balance).toBe(48)
  })

  it('funds a link from the main balance with --from main', async () => {
    const u = await loggedIn()
    const created = await u.run(['farm', 'create', '30', '--days', '10', '--from', 'main', '--json'])
    expect(created.code, created.stderr).toBe(0)
    expect(created.json()).toMatchObject({ amount: 30, from_ref_balance: false, from_task_balance: false })
    // The welcome 100 less the link's 30.
    expect((await u.run(['balances', '--json'])).json().balance_token).toBe(70)
    const poor = await u.run(['farm', 'create', '80', '--days', '10', '--from', 'main'])
    expect(poor.code).toBe(1)
    expect(poor.stderr).toContain('Error: Insufficient balance: the link needs 80 AXIOM from your main balance, which holds 70 AXIOM')
  })

  it('checks farm options before sending', async () => {
    const u = await loggedIn()
    for (const argv of [
      ['farm', 'create', '2', '--days', '10', '--activations', '3'],
      ['farm', 'create', '2', '--days', '10', '--from', 'wallet'],
      ['farm', 'create', 'two', '--days', '10'],
      ['farm', 'cancel'],
    ])
      expect((await u.run(argv)).code, argv.join(' ')).toBe(2)
    const poor = await u.run(['farm', 'create', '2', '--days', '10'])
    expect(poor.code).toBe(1)
    expect(poor.stderr).toContain('Error: Insufficient balance')
  })
})

describe('sell, transfer, history', () => {
  it('sells to an address and shows it in both histories', async () => {
    const u = await loggedIn()
    // Welcome tokens are for bonds only; what is sold is tokens of the user's own.
    await stack.server.admin.credit(u.id, '10')
    const s = await u.run(['sell', '5.5', '--to', SOME_ADDRESS, '--json'])
    expect(s.code, s.stderr).toBe(0)
    // The backend stores a sale's address in one form: friendly, non-bounceable (UQ…), whatever was typed (EQ…).
    expect(s.json()).toMatchObject({ status: 'pending', token_amount: 5.5, fee: 0.165, address: 'UQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8Ld5A' })
    const w = (await u.run(['history', '--withdrawals', '--json'])).json()
    expect(w).toMatchObject({ total: 1, page: 1, pages: 1, items: [{ token_amount: 5.5 }] })
    const ops = (await u.run(['history', '--json'])).json()
    expect(ops.items.map((o: { type: string }) => o.type)).toEqual(['withdraw', 'admin_credit', 'welcome'])
    const human = await u.run(['history'])
    expect(human.stdout).toMatch(/withdraw\s+-5\.50/)
    expect(human.stdout).toContain('page 1 of 1')
    expect((await u.run(['history', '--withdrawals'])).stdout).toContain('UQA_')
  })

  it('refuses a bad amount or address without sending, and an overdraft with the server message', async () => {
    const u = await loggedIn()
    const before = await stack.server.admin.snapshot()
    const abc = await u.run(['sell', 'abc', '--to', SOME_ADDRESS])
    expect(abc.code).toBe(2)
    expect(abc.stderr).toContain('<amount> must be a number')
    expect(abc.stderr).toContain('Usage: axiom sell')
    expect((await u.run(['sell', '5'])).code).toBe(2)
    const badAddress = await u.run(['sell', '5', '--to', 'nowhere'])
    expect(badAddress.code).toBe(2)
    expect(badAddress.stderr).toContain('Error: Enter a valid TON address')
    expect(await stack.server.admin.snapshot()).toBe(before)
    const tooMuch = await u.run(['sell', '1000', '--to', SOME_ADDRESS])
    expect(tooMuch.code).toBe(1)
    expect(tooMuch.stderr).toContain('Error: Insufficient balance')
  })

  it('transfers referral balance into the main balance', async () => {
    const u = await loggedIn()
    await stack.server.admin.credit(u.id, '10', 'referral_balance')
    const t = await u.run(['transfer', '3', '--json'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.json()).toEqual({ balance_token: 103, referral_balance: 7 })
    expect((await u.run(['transfer', '100'])).code).toBe(1)
    expect((await u.run(['transfer', 'lots'])).code).toBe(2)
  })
})

describe('tasks', () => {
  it('walks tasks through start, validate and claim, with a link and a photo', async () => {
    const u = await loggedIn()
    const list = (await u.run(['tasks', '--json'])).json()
    expect(list.map((t: { task_id: number }) => t.task_id)).toEqual([1, 2, 3])
    for (const id of ['1', '2']) {
      expect((await u.run(['tasks', 'start', id])).code).toBe(0)
      expect((await u.run(['tasks', 'validate', id])).code).toBe(0) // task 2: its own URL is the link
      const claimed = await u.run(['tasks', 'claim', id, '--json'])
      expect(claimed.json().status).toBe('CLAIMED')
    }
    const photo = join(u.home, 'proof.png')
    writeFileSync(photo, Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a00000000049454e44ae426082', 'hex'))
    expect((await u.run(['tasks', 'start', '3'])).code).toBe(0)
    const v = await u.run(['tasks', 'validate', '3', '--photo', photo, '--json'])
    expect(v.code, v.stderr).toBe(0)
    expect(v.json().status).toBe('VALIDATED')
    expect((await u.run(['tasks', 'claim', '3'])).stdout).toContain('Task 3 is CLAIMED')
    expect((await u.run(['balances', '--json'])).json().task_balance).toBe(18)
    expect((await u.run(['me', '--json'])).json().community_participation).toBe(true)
  })

  it('tells the next step instead of breaking the order, and checks the photo file', async () => {
    const u = await loggedIn()
    const early = await u.run(['tasks', 'claim', '1'])
    expect(early.code).toBe(2)
    expect(early.stderr).toContain('its next step is: axiom tasks start 1')
    expect((await u.run(['tasks', 'start', '99'])).stderr).toContain('No task 99')
    expect((await u.run(['tasks', 'validate', '3', '--photo', 'notes.txt'])).code).toBe(2)
    expect((await u.run(['tasks', 'validate', '3', '--photo', '/nonexistent/p.png'])).stderr).toContain('Cannot read the photo')
    const wrongLink = await u.run(['tasks', 'start', '2']).then(() => u.run(['tasks', 'validate', '2', '--link', 'https://example.com']))
    expect(wrongLink.code).toBe(1)
    expect(wrongLink.stderr).toContain('Error: The link does not match the task')
  })
})

describe('market', () => {
  it('price', async () => {
    const u = await loggedIn()
    const p = (await u.run(['price', '--json'])).json()
    expect(p.price).toBeGreaterThan(0)
    expect((await u.run(['price'])).stdout).toMatch(/^\d+\.\d+ GRAM · 24h [+-]?[\d.]+ % · 30d/)
  })

  it('candles: JSON, and a chart that fits the terminal width', async () => {
    const u = await loggedIn()
    const list = (await u.run(['candles', '--interval', '1h', '--json'])).json()
    expect(list.length).toBeGreaterThan(50)
    expect(list[0]).toMatchObject({ time: expect.any(Number), open: expect.any(Number), high: expect.any(Number) })
    const stdout = new Sink({ columns: 60 })
    const chart = await u.run(['candles', '--interval', '4h'], { stdout })
    expect(chart.code).toBe(0)
    const lines = chart.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('AXIOM/GRAM · 4h')
    expect(lines.filter((l) => l.includes('┤'))).toHaveLength(14)
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(60)
    expect(chart.stdout).toMatch(/[█▒]/)
    const bad = await u.run(['candles', '--interval', '2h'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--interval must be one of 5m, 30m, 1h, 4h, 1d')
  })
})

describe('failures', () => {
  it('exits 4 when the backend cannot be reached', async () => {
    const u = await loggedIn()
    const r = await u.run(['balances'], { env: { AXIOM_API: 'http://127.0.0.1:1' } })
    expect(r.code).toBe(4)
    expect(r.stderr).toContain('Error: Network Error! Code: ERR_NETWORK')
  })

  it('exits 1 with the server message under maintenance', async () => {
    const u = await loggedIn()
    await stack.server.admin.setMaintenance(true)
    try {
      const r = await u.run(['balances', '--json'])
      expect(r.code).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain('Error: We are under maintenance')
    } finally {
      await stack.server.admin.setMaintenance(false)
    }
  })

  it('exits 3 when the session is refused and cannot be renewed; the next run signs in again', async () => {
    const u = await loggedIn()
    writeFileSync(join(u.home, 'session.json'), JSON.stringify({ auth_token: 'bogus', refresh_token: 'bogus' }))
    const r = await u.run(['me'])
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('Invalid token')
    // Both refused tokens were dropped, so the stored init data registers again.
    expect((await u.run(['me', '--json'])).code).toBe(0)
  })

  it('exits 3 without stored init data even with tokens (the core signs in from launch data first)', async () => {
    const u = await loggedIn()
    writeFileSync(join(u.home, 'launch.json'), '{}')
    const r = await u.run(['me'])
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('Not logged in')
  })
})
