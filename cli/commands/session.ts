import { farmCodeOf, parseStartParam } from '../../core/index.ts'
import { stringArg, UsageError, wholeArg } from '../args.ts'
import type { CliContext } from '../context.ts'
import { DEV_BOT_TOKEN, readInitData, signDevInitData } from '../dev-init-data.ts'
import { type Out, tokens } from '../output.ts'
import { type Command, now, orFail } from './command.ts'

/** The core's authenticate; a different user than last time wipes local state and signs in again (the app reloads). */
export const signIn = async (ctx: CliContext, out: Out): Promise<void> => {
  const outcome = await out.exec(ctx.uc.authenticate(), 'Signing in')
  if (outcome === 'reloading') {
    ctx.platform.reloadRequested = false
    await out.exec(ctx.uc.authenticate(), 'Signing in')
  }
}

export const login: Command = {
  name: 'login',
  args: '<initData> | --dev-user <id> [--name N] [--ref CODE]',
  summary: 'Sign in with Telegram init data, or as a dev user signed with BOT_TOKEN (local backend)',
  examples: ['axiom login --dev-user 1001 --name Alice', "axiom login 'query_id=…&user=…&auth_date=…&hash=…'"],
  options: { 'dev-user': { type: 'string' }, name: { type: 'string' }, ref: { type: 'string' } },
  positionals: [0, 1],
  auth: false,
  async run(ctx, out, a) {
    const ref = a.values.ref === undefined ? undefined : stringArg(a.values.ref, '--ref CODE')
    if (ref !== undefined && parseStartParam(ref)._tag !== 'Referral') {
      const farm = farmCodeOf(parseStartParam(ref))
      throw new UsageError(farm ? `--ref takes a referral code; ${ref} is a farming link: axiom farm activate ${farm}` : `--ref: ${ref} is not a referral code`)
    }
    let initData: string
    let userId: string
    let startParam: string | null
    if (a.values['dev-user'] !== undefined) {
      if (a.positionals.length > 0) throw new UsageError('Give either <initData> or --dev-user, not both')
      const id = wholeArg(a.values['dev-user'], '--dev-user <id>')
      const name = a.values.name === undefined ? undefined : stringArg(a.values.name, '--name N')
      const botToken = ctx.io.env.BOT_TOKEN || DEV_BOT_TOKEN
      initData = signDevInitData({ id, ...(name ? { firstName: name } : {}), startParam: ref ?? null }, botToken, now(ctx))
      userId = String(id)
      startParam = ref ?? null
    } else {
      const raw = a.positionals[0]
      if (!raw) throw new UsageError('Give the Telegram init data, or --dev-user <id>')
      if (a.values.name !== undefined) throw new UsageError('--name goes with --dev-user')
      const facts = readInitData(raw)
      if (!facts) throw new UsageError('That is not Telegram init data (it needs user, auth_date and hash)')
      initData = raw.trim()
      userId = facts.userId
      startParam = ref ?? facts.startParam
    }
    ctx.session.remove('auth_token')
    ctx.session.remove('refresh_token')
    ctx.launchFile.write({ initData, userId, startParam })
    try {
      await signIn(ctx, out)
    } catch (e) {
      ctx.launchFile.clear()
      throw e
    }
    const user = orFail(await out.exec(ctx.uc.loadUser(), 'Loading your account'))
    // A launch from a farming link carries its code, which is not a referral code: say how to use it.
    const farmCode = farmCodeOf(parseStartParam(startParam))
    out.emit(
      { user_id: userId, api: ctx.origin, ...user, ...(farmCode ? { farm_code: farmCode } : {}) },
      `Logged in as Telegram user ${userId} on ${ctx.origin}\nBalance ${tokens(user.balance_token)} AXIOM · referral code ${user.ref_code}\n` +
        (farmCode ? `This launch came from a farming link: axiom farm activate ${farmCode}\n` : ''),
    )
  },
}

export const logout: Command = {
  name: 'logout',
  args: '',
  summary: 'Forget the session, the init data and local state',
  examples: ['axiom logout'],
  positionals: [0, 0],
  auth: false,
  async run(ctx, out) {
    ctx.session.remove('auth_token')
    ctx.session.remove('refresh_token')
    ctx.launchFile.clear()
    ctx.storage.clear()
    out.emit({ logged_out: true }, 'Logged out\n')
  },
}
