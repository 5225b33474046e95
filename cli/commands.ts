import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { Effect } from 'effect'
import {
  CANDLE_INTERVALS,
  type CandleInterval,
  displayedLevel,
  farmCodeOf,
  type FarmingLink,
  type FundingSource,
  type Mint,
  nextTaskStep,
  nextTier,
  nowSeconds,
  type Operation,
  pageCount,
  parseStartParam,
  rewardAt,
  shortAddress,
  type Stake,
  type Task,
  type TaskStep,
  tierForTurnover,
  type WalletAccount,
  WalletNotConnected,
  type WalletTransaction,
  type Withdrawal,
} from '../core/index.ts'
import { amountArg, Exit, stringArg, UsageError, wholeArg } from './args.ts'
import { candleChart } from './candle-chart.ts'
import { type CliContext, EffectFailure, runEffect } from './context.ts'
import { DEV_BOT_TOKEN, readInitData, signDevInitData } from './dev-init-data.ts'
import { fine, nanoToTon, type Out, percent, ton, tokens, when } from './output.ts'
import { dailyRate, formatRate, recordColumns, withReward } from './records.ts'
import { type Column, keyValues, table } from './table.ts'
import { watch } from './watch.ts'

export type { Out } from './output.ts'

export interface Parsed {
  readonly positionals: ReadonlyArray<string>
  readonly values: Readonly<Record<string, string | boolean | undefined>>
}

/** How a command speaks: one JSON document with --json, else human text; core effects run through `exec`. */
type OptionSpec = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>>

export interface Command {
  readonly name: string
  readonly args: string
  readonly summary: string
  readonly examples: ReadonlyArray<string>
  readonly options?: OptionSpec
  /** How many positional arguments: [min, max]. */
  readonly positionals: readonly [number, number]
  /** Signs in (the core's authenticate) before running. */
  readonly auth: boolean
  run(ctx: CliContext, out: Out, a: Parsed): Promise<void>
}

const newKey = () => randomUUID()
const now = (ctx: CliContext) => nowSeconds(ctx.clock)
/** A read that fell back to null after the API client reported its error (spec §8). */
const orFail = <A>(value: A | null): A => {
  if (value === null) throw new Exit(1)
  return value
}

// ── records ─────────────────────────────────────────────────────────────────

const linkColumns: ReadonlyArray<Column<FarmingLink>> = [
  { header: 'ID', value: (l) => String(l.id), align: 'right' },
  { header: 'CODE', value: (l) => l.activation_code },
  { header: 'STATUS', value: (l) => l.status ?? '-' },
  { header: 'AMOUNT', value: (l) => tokens(l.amount), align: 'right' },
  { header: 'DAYS', value: (l) => String(l.days), align: 'right' },
  { header: 'USED', value: (l) => `${l.used_activations ?? 0}/${l.count_activations}`, align: 'right' },
  { header: 'FROM', value: (l) => (l.from_ref_balance ? 'ref' : 'task') },
  { header: 'KIND', value: (l) => `${l.is_multilink ? 'multi' : 'single'}${l.is_for_me ? ', for me' : ''}` },
  { header: 'CREATED', value: (l) => when(l.created_at) },
]

const taskColumns: ReadonlyArray<Column<Task>> = [
  { header: 'ID', value: (t) => String(t.task_id), align: 'right' },
  { header: 'STATUS', value: (t) => t.status },
  { header: 'NEXT', value: (t) => nextTaskStep(t.status) ?? '-' },
  { header: 'REWARD', value: (t) => (t.reward === undefined ? '-' : tokens(t.reward)), align: 'right' },
  { header: 'KIND', value: (t) => t.kind ?? '-' },
  { header: 'TITLE', value: (t) => t.title ?? '' },
  { header: 'URL', value: (t) => t.url ?? '' },
]

const withdrawalColumns: ReadonlyArray<Column<Withdrawal>> = [
  { header: 'ID', value: (w) => String(w.id), align: 'right' },
  { header: 'STATUS', value: (w) => w.status },
  { header: 'AMOUNT', value: (w) => tokens(w.token_amount), align: 'right' },
  { header: 'FEE', value: (w) => (w.fee === undefined ? '-' : tokens(w.fee)), align: 'right' },
  { header: 'NET', value: (w) => (w.net_amount === undefined ? '-' : tokens(w.net_amount)), align: 'right' },
  { header: 'FROM', value: (w) => (w.from_ref_balance ? 'ref' : 'main') },
  { header: 'TO', value: (w) => shortAddress(w.address) },
  { header: 'CREATED', value: (w) => when(w.created_at) },
]

const operationColumns: ReadonlyArray<Column<Operation>> = [
  { header: 'ID', value: (o) => String(o.id), align: 'right' },
  { header: 'TYPE', value: (o) => o.type },
  { header: 'AMOUNT', value: (o) => tokens(o.amount), align: 'right' },
  { header: 'WHEN', value: (o) => when(o.created_at) },
  { header: 'DESCRIPTION', value: (o) => o.description ?? '' },
]

// ── sign-in ─────────────────────────────────────────────────────────────────

/** The core's authenticate; a different user than last time wipes local state and signs in again (the app reloads). */
export const signIn = async (ctx: CliContext, out: Out): Promise<void> => {
  const outcome = await out.exec(ctx.uc.authenticate(), 'Signing in')
  if (outcome === 'reloading') {
    ctx.platform.reloadRequested = false
    await out.exec(ctx.uc.authenticate(), 'Signing in')
  }
}

const login: Command = {
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

const logout: Command = {
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

// ── account ─────────────────────────────────────────────────────────────────

const me: Command = {
  name: 'me',
  args: '',
  summary: 'Your account: referral standing, bonuses and balances',
  examples: ['axiom me', 'axiom me --json | jq .ref_code'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const u = orFail(await out.exec(ctx.uc.loadUser(), 'Loading your account'))
    const tier = tierForTurnover(u.ref.turnover ?? 0)
    const next = nextTier(tier)
    out.emit(u, () =>
      keyValues([
        ['Referral code', u.ref_code],
        ['Level', `${displayedLevel(u.ref.level)} (bonus ${tier.bonus} %)`],
        ['Turnover', `${tokens(u.ref.turnover ?? 0)}${next ? ` (level ${next.level} at ${tokens(next.threshold)})` : ''}`],
        ['Community member', u.community_participation ? 'yes' : 'no'],
        ['Balance', `${tokens(u.balance_token)} AXIOM`],
        ['Task balance', `${tokens(u.task_balance)} AXIOM`],
        ['Referral balance', `${tokens(u.referral_balance)} AXIOM`],
        ['Hold bonus', percent(u.hold_bonus)],
        ['Investment bonus', percent(u.investment_bonus)],
        ['Collective bonus', percent(u.collective_bonus)],
      ]),
    )
  },
}

const balances: Command = {
  name: 'balances',
  args: '',
  summary: 'Your main, task and referral balances',
  examples: ['axiom balances'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const u = orFail(await out.exec(ctx.uc.loadUser(), 'Loading balances'))
    const data = { balance_token: u.balance_token, task_balance: u.task_balance, referral_balance: u.referral_balance }
    out.emit(data, () =>
      table(
        [
          ['main', u.balance_token],
          ['task', u.task_balance],
          ['referral', u.referral_balance],
        ] as const,
        [
          { header: 'BALANCE', value: (r) => r[0] },
          { header: 'AXIOM', value: (r) => tokens(r[1]), align: 'right' },
        ],
      ),
    )
  },
}

// ── bonds and stakes ────────────────────────────────────────────────────────

const mints: Command = {
  name: 'mints',
  args: '',
  summary: 'Your bonds (mints) with the reward earned so far',
  examples: ['axiom mints', 'axiom mints --json'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const list = await out.exec(ctx.uc.loadMints(), 'Loading bonds')
    const t = now(ctx)
    out.emit(
      list.map((m) => withReward(m, t)),
      () => table(list, recordColumns<Mint>(t), 'No bonds yet. Buy one: axiom bond <amount> --days N'),
    )
  },
}

const stakes: Command = {
  name: 'stakes',
  args: '',
  summary: 'Your stakes with the reward earned so far',
  examples: ['axiom stakes'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const list = await out.exec(ctx.uc.loadStakes(), 'Loading stakes')
    const t = now(ctx)
    out.emit(
      list.map((s) => withReward(s, t)),
      () => table(list, recordColumns<Stake>(t), 'No stakes yet. Stake an active bond: axiom stake <mintId>'),
    )
  },
}

const plans: Command = {
  name: 'plans',
  args: '',
  summary: 'The bond plans on offer, by days',
  examples: ['axiom plans'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const list = await out.exec(ctx.uc.loadBondPlans(), 'Loading plans')
    out.emit(list, () =>
      table(list, [
        { header: 'DAYS', value: (p) => String(p.days), align: 'right' },
        { header: '% / DAY', value: (p) => (p.daily_reward === undefined ? '-' : formatRate(p.daily_reward)), align: 'right' },
      ]),
    )
  },
}

/** How long `bond` waits for a paid bond to become active, by default. */
export const BOND_ACTIVE_WAIT_S = 90
const BOND_POLL_MS = 500

/** The payment that activates a pending bond, as printed and as --json. */
const paymentView = (p: { address: string; amount_nano: string; comment: string; valid_until: number }) => {
  const amountTon = nanoToTon(p.amount_nano)
  return {
    ...p,
    amount_ton: amountTon,
    link: `ton://transfer/${p.address}?amount=${p.amount_nano}&text=${encodeURIComponent(p.comment)}`,
  }
}

const paymentLines = (p: ReturnType<typeof paymentView>) =>
  keyValues([
    ['Pay to', p.address],
    ['Amount', `${p.amount_ton} TON`],
    ['Comment', p.comment],
    ['Valid until', `${when(p.valid_until)} UTC`],
    ['Wallet link', p.link],
  ])

/** No wallet connected: creates the pending bond and prints the payment for any wallet to send. */
const printBondPayment = async (ctx: CliContext, out: Out, amount: number, days: number) => {
  const { mint, payment } = await out.exec(ctx.uc.orderBond(amount, days, { idempotencyKey: newKey() }), 'Creating the bond')
  const p = paymentView(payment)
  out.emit(
    { mint, payment: p, paid: false },
    () =>
      `Bond #${mint.id} created: ${tokens(mint.amount_token)} AXIOM for ${mint.tariff_days} days (pending until paid)\n\n` +
      paymentLines(p) +
      '\nThe bond becomes active when the payment arrives (watch it: axiom watch).\n' +
      'To pay from the terminal, connect a wallet first: axiom wallet connect --dev-wallet (local stack)\n',
  )
}

/** Polls the bonds until `id` is no longer pending (the chain watcher activated it), or the wait ends. */
const waitUntilActive = async (ctx: CliContext, id: Mint['id'], seconds: number): Promise<Mint | null> => {
  const until = Date.now() + seconds * 1000
  for (;;) {
    const list = await runEffect(ctx.uc.loadMints())
    const found = list.find((m) => String(m.id) === String(id))
    if (found && found.status !== 'pending') return found
    if (Date.now() >= until || ctx.io.signal?.aborted) return found ?? null
    await new Promise((resolve) => setTimeout(resolve, BOND_POLL_MS))
  }
}

/**
 * A connected wallet: the core's buyBond (the pending mint, the wallet's transaction to the
 * treasury with the mint's comment, 'Transaction is being processed', the balance watch), then the
 * wait for the bond to become active. A payment the wallet did not send cancels the pending bond.
 */
const payBond = async (ctx: CliContext, out: Out, amount: number, days: number, account: WalletAccount, waitSeconds: number) => {
  let pending: Mint | null = null
  let sent: WalletTransaction | null = null
  try {
    const purchase = await out.progress('Creating the bond', async (setText) => {
      ctx.walletHooks.onSendTransaction = (tx) => {
        sent = tx
        const m = tx.messages[0]
        if (m && !out.json)
          ctx.notice(`Asking ${account.friendlyAddress ?? account.address} to pay ${nanoToTon(m.amount)} TON to ${m.address} (comment ${m.comment ?? '-'})`)
        setText('Waiting for the wallet to approve the payment')
      }
      return runEffect(
        ctx.uc.buyBond({
          amount,
          days,
          idempotencyKey: newKey(),
          onPendingMint: (mint) => {
            pending = mint
            if (!out.json) ctx.notice(`Bond #${mint.id} created: ${tokens(mint.amount_token)} AXIOM for ${mint.tariff_days} days (pending until paid)`)
            setText('Preparing the payment')
          },
        }),
      ).then((r) => {
        setText(`Waiting for bond #${r.mint.id} to become active`)
        return r
      })
    })
    const txMessage = (sent as WalletTransaction | null)?.messages[0]
    const payment = txMessage
      ? paymentView({ address: txMessage.address, amount_nano: txMessage.amount, comment: txMessage.comment ?? '', valid_until: sent!.validUntil })
      : null
    const mint = await out.progress(`Waiting for bond #${purchase.mint.id} to become active`, () => waitUntilActive(ctx, purchase.mint.id, waitSeconds))
    const result = {
      mint: mint ?? purchase.mint,
      payment,
      paid: true,
      balance_changed: purchase.balanceChanged,
      wallet: { address: account.address, friendly_address: account.friendlyAddress ?? null },
    }
    if (!mint || mint.status === 'pending') {
      out.emit(result, () => `Paid, but bond #${purchase.mint.id} is not active after ${waitSeconds} s. Check it: axiom mints\n`)
      throw new Exit(1)
    }
    if (mint.status === 'canceled') {
      out.emit(result, `Bond #${mint.id} was canceled before the payment arrived (the payment is refunded)\n`)
      throw new Exit(1)
    }
    out.emit(
      result,
      () =>
        `Paid ${payment ? `${payment.amount_ton} TON ` : ''}from ${account.friendlyAddress ?? account.address}\n` +
        `Bond #${mint.id} is ${mint.status}: ${tokens(mint.amount_token)} AXIOM for ${mint.tariff_days} days at ${formatRate(dailyRate(mint))} % a day\n`,
    )
  } catch (e) {
    const tag = e instanceof EffectFailure ? e.error._tag : ''
    const unpaid = pending as Mint | null
    if (unpaid && (tag === 'TransactionNotSent' || tag === 'WalletProtocolError' || tag === 'WalletNotConnected')) {
      // Nothing was paid: the pending bond goes (the app clears it too); a late payment is refunded.
      const canceled = await Effect.runPromise(Effect.result(ctx.uc.cancelBond(unpaid.id)))
      if (canceled._tag === 'Success' && !out.json) ctx.notice(`Bond #${unpaid.id} canceled: nothing was paid`)
    }
    throw e
  } finally {
    ctx.walletHooks.onSendTransaction = null
  }
}

const bond: Command = {
  name: 'bond',
  args: '<amount> --days N [--pay] [--wait SECONDS]',
  summary:
    'Buy a bond: with a connected wallet (axiom wallet connect) it pays and waits until the bond is active; without one it prints the TON payment',
  examples: ['axiom bond 200 --days 30', 'axiom wallet connect --dev-wallet && axiom bond 10 --days 10 --pay'],
  options: { days: { type: 'string' }, pay: { type: 'boolean' }, wait: { type: 'string' } },
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const amount = amountArg(a.positionals[0])
    const days = wholeArg(a.values.days, '--days N')
    const waitSeconds = a.values.wait === undefined ? BOND_ACTIVE_WAIT_S : wholeArg(a.values.wait, '--wait SECONDS')
    const account = await out.exec(ctx.uc.restoreWallet(), 'Restoring the wallet connection')
    if (account) return payBond(ctx, out, amount, days, account, waitSeconds)
    if (a.values.pay) {
      ctx.notice('Connect a wallet first: axiom wallet connect --dev-wallet (local stack), or axiom wallet connect')
      throw new EffectFailure(new WalletNotConnected())
    }
    await printBondPayment(ctx, out, amount, days)
  },
}

// ── wallet ──────────────────────────────────────────────────────────────────

/** What `wallet status` and `wallet connect` show. */
const walletView = async (ctx: CliContext, account: WalletAccount) => {
  const balance = await Effect.runPromise(Effect.result(ctx.chain.balance(account.address)))
  const nano = balance._tag === 'Success' ? balance.success.toString() : null
  return {
    connected: true,
    address: account.address,
    friendly_address: account.friendlyAddress ?? null,
    chain: account.chain,
    wallet: ctx.wallet.walletApp(),
    max_messages: ctx.wallet.maxMessages(),
    balance_nano: nano,
    balance_ton: nano === null ? null : nanoToTon(nano),
  }
}

const walletLines = (v: Awaited<ReturnType<typeof walletView>>) =>
  keyValues([
    ['Address', v.friendly_address ?? v.address],
    ['Raw address', v.address],
    ['Network', v.chain === '-3' ? 'testnet (-3)' : v.chain === '-239' ? 'mainnet id (-239)' : v.chain],
    ['Wallet', v.wallet ?? '-'],
    ['Balance', v.balance_ton === null ? 'unknown (no TON node at AXIOM_TON_V4)' : `${ton(v.balance_ton)} TON`],
  ])

const walletConnect: Command = {
  name: 'wallet connect',
  args: '[--dev-wallet]',
  summary: 'Connect a TON wallet over TON Connect: prints the link; --dev-wallet hands it to the local dev wallet',
  examples: ['axiom wallet connect --dev-wallet', 'axiom wallet connect'],
  options: { 'dev-wallet': { type: 'boolean' } },
  positionals: [0, 0],
  auth: false,
  async run(ctx, out, a) {
    if (a.values['dev-wallet']) ctx.links.devWallet = true
    const existing = await out.exec(ctx.uc.restoreWallet(), 'Restoring the wallet connection')
    if (existing) {
      const v = await walletView(ctx, existing)
      out.emit({ ...v, already_connected: true }, () => 'Already connected (axiom wallet disconnect first to change it)\n' + walletLines(v))
      return
    }
    const account = await out.exec(ctx.uc.connectWallet(), 'Waiting for the wallet to accept the connection')
    const v = await walletView(ctx, account)
    out.emit(v, () => 'Wallet connected\n' + walletLines(v))
  },
}

const walletStatus: Command = {
  name: 'wallet status',
  args: '',
  summary: 'The connected wallet: address, network and balance',
  examples: ['axiom wallet status', 'axiom wallet status --json | jq -r .address'],
  positionals: [0, 0],
  auth: false,
  async run(ctx, out) {
    const account = await out.exec(ctx.uc.restoreWallet(), 'Restoring the wallet connection')
    if (!account) {
      out.emit({ connected: false }, 'No wallet connected. Connect one: axiom wallet connect --dev-wallet (local stack)\n')
      return
    }
    const v = await walletView(ctx, account)
    out.emit(v, () => walletLines(v))
  },
}

const walletDisconnect: Command = {
  name: 'wallet disconnect',
  args: '',
  summary: 'Disconnect the wallet and forget the connection',
  examples: ['axiom wallet disconnect'],
  positionals: [0, 0],
  auth: false,
  async run(ctx, out) {
    const account = await out.exec(ctx.uc.restoreWallet(), 'Restoring the wallet connection')
    await out.exec(ctx.uc.disconnectWallet(), 'Disconnecting')
    out.emit({ disconnected: true, address: account?.address ?? null }, 'Wallet disconnected\n')
  },
}

const cancel: Command = {
  name: 'cancel',
  args: '<mintId>',
  summary: 'Cancel a bond (an active one returns its principal less a 10 % penalty)',
  examples: ['axiom cancel 12'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const id = wholeArg(a.positionals[0], '<mintId>')
    const m = await out.exec(ctx.uc.cancelBond(id), 'Cancelling')
    out.emit(m, `Bond #${m.id} is ${m.status}\n`)
  },
}

const stake: Command = {
  name: 'stake',
  args: '<mintId>',
  summary: 'Stake an active bond',
  examples: ['axiom stake 12'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const id = wholeArg(a.positionals[0], '<mintId>')
    const s = await out.exec(ctx.uc.stakeMint(id, { idempotencyKey: newKey() }), 'Staking')
    out.emit(
      s,
      `Stake #${s.id} ${s.status}: ${tokens(s.total_amount)} AXIOM for ${s.tariff_days} days at ${formatRate(dailyRate(s))} % a day\n`,
    )
  },
}

// ── farming ─────────────────────────────────────────────────────────────────

const farmCreate: Command = {
  name: 'farm create',
  args: '<amount> --days N [--activations K] [--multi] [--for-me] [--from ref|task|main]',
  summary: 'Create a farming link funded from the referral (default), task or main balance',
  examples: ['axiom farm create 2 --days 10 --activations 3 --multi --from task'],
  options: {
    days: { type: 'string' },
    activations: { type: 'string' },
    multi: { type: 'boolean' },
    'for-me': { type: 'boolean' },
    from: { type: 'string' },
  },
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const amount = amountArg(a.positionals[0])
    const days = wholeArg(a.values.days, '--days N')
    const activations = a.values.activations === undefined ? 1 : wholeArg(a.values.activations, '--activations K')
    const from = a.values.from ?? 'ref'
    if (from !== 'ref' && from !== 'task' && from !== 'main') throw new UsageError(`--from must be ref, task or main, got "${String(from)}"`)
    const multiUse = a.values.multi === true
    if (!multiUse && activations !== 1) throw new UsageError('A single-use link has one activation: add --multi for more')
    const source: FundingSource = from === 'ref' ? 'referral' : from
    const link = await out.exec(
      ctx.uc.createFarmingLink({ amount, days, activations, source, multiUse, forMe: a.values['for-me'] === true }, { idempotencyKey: newKey() }),
      'Creating the link',
    )
    out.emit(link, `Farming link #${link.id} created: code ${link.activation_code}\nActivate it with: axiom farm activate ${link.activation_code}\n`)
  },
}

const farmList: Command = {
  name: 'farm list',
  args: '',
  summary: 'Your farming links',
  examples: ['axiom farm list'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const links = await out.exec(ctx.uc.loadFarmingLinks(), 'Loading links')
    out.emit(links, () => table(links, linkColumns, 'No farming links yet'))
  },
}

const farmCancel: Command = {
  name: 'farm cancel',
  args: '<id>',
  summary: 'Revoke a farming link; unused activations are refunded',
  examples: ['axiom farm cancel 3'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const id = wholeArg(a.positionals[0], '<id>')
    const link = await out.exec(ctx.uc.cancelFarmingLink(id), 'Cancelling the link')
    out.emit(link, `Farming link #${link.id} is ${link.status ?? 'revoked'}\n`)
  },
}

const farmActivate: Command = {
  name: 'farm activate',
  args: '<code>',
  summary: 'Activate a farming code: a bond for you (once per code)',
  examples: ['axiom farm activate K7Q2M9XW4P'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const code = stringArg(a.positionals[0], '<code>')
    const result = await out.exec(ctx.uc.checkFarmCode(code), 'Activating')
    if (!result) {
      out.emit({ code, already_checked: true }, `Code ${code} was already checked from this machine\n`)
      return
    }
    const d = result.mint_details
    out.emit(
      { code, ...result },
      `${result.status}${result.message ? `: ${result.message}` : ''}\n` +
        (d ? `Bond of ${tokens(d.amount_token)} AXIOM for ${d.tariff_days} days\n` : ''),
    )
  },
}

// ── selling ─────────────────────────────────────────────────────────────────

const sell: Command = {
  name: 'sell',
  args: '<amount> --to <address> [--from-ref]',
  summary: 'Sell tokens to a TON address (3 % fee), from the main or the referral balance',
  examples: ['axiom sell 5.5 --to EQB6HAtOLw1qOpxeix1Peixumz1fihxOey1vmjxeix1PerQ7'],
  options: { to: { type: 'string' }, 'from-ref': { type: 'boolean' } },
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const amount = amountArg(a.positionals[0])
    const address = stringArg(a.values.to, '--to <address>')
    const w = await out.exec(
      ctx.uc.sellTokens({ amount, address, fromReferral: a.values['from-ref'] === true }, { idempotencyKey: newKey() }),
      'Selling',
    )
    out.emit(
      w,
      `Sale #${w.id} ${w.status}: ${tokens(w.token_amount)} AXIOM${w.net_amount === undefined ? '' : ` (${tokens(w.net_amount)} after the fee)`} to ${w.address}\n`,
    )
  },
}

const transfer: Command = {
  name: 'transfer',
  args: '<amount>',
  summary: 'Move referral balance into the main balance',
  examples: ['axiom transfer 3'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const amount = amountArg(a.positionals[0])
    const r = await out.exec(ctx.uc.transferReferralBalance(amount, { idempotencyKey: newKey() }), 'Transferring')
    out.emit(r, `Moved ${tokens(amount)} AXIOM. Balance ${tokens(r.balance_token)} · referral ${tokens(r.referral_balance)}\n`)
  },
}

// ── tasks ───────────────────────────────────────────────────────────────────

const tasks: Command = {
  name: 'tasks',
  args: '',
  summary: 'Tasks and their next step',
  examples: ['axiom tasks'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const list = await out.exec(ctx.uc.loadTasks(), 'Loading tasks')
    out.emit(list, () => table(list, taskColumns, 'No tasks'))
  },
}

const PHOTO_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
}

const taskStep = (step: TaskStep): Command => ({
  name: `tasks ${step}`,
  args: step === 'validate' ? '<id> [--link URL] [--photo FILE]' : '<id>',
  summary:
    step === 'start'
      ? 'Start a task'
      : step === 'validate'
        ? 'Validate a task: a link task takes --link (default: its URL), a photo task --photo'
        : 'Claim a validated task: its reward goes to the task balance',
  examples: step === 'validate' ? ['axiom tasks validate 3 --photo proof.png'] : [`axiom tasks ${step} 1`],
  ...(step === 'validate' ? { options: { link: { type: 'string' }, photo: { type: 'string' } } as const } : {}),
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const id = wholeArg(a.positionals[0], '<id>')
    let photo: string | undefined
    if (a.values.photo !== undefined) {
      const file = stringArg(a.values.photo, '--photo FILE')
      const type = PHOTO_TYPES[extname(file).toLowerCase()]
      if (!type) throw new UsageError(`--photo must be a ${Object.keys(PHOTO_TYPES).join(', ')} image, got "${file}"`)
      let bytes: Buffer
      try {
        bytes = readFileSync(file)
      } catch {
        throw new UsageError(`Cannot read the photo "${file}"`)
      }
      photo = `data:${type};base64,${bytes.toString('base64')}`
    }
    const link = a.values.link === undefined ? undefined : stringArg(a.values.link, '--link URL')
    const list = await out.exec(ctx.uc.loadTasks(), 'Loading tasks')
    const task = list.find((t) => String(t.task_id) === String(id))
    if (!task) throw new UsageError(`No task ${id}. See: axiom tasks`)
    const next = nextTaskStep(task.status)
    if (next !== step)
      throw new UsageError(`Task ${id} is ${task.status}; ${next ? `its next step is: axiom tasks ${next} ${id}` : 'it is done'}`)
    const proof = step === 'validate' ? { ...((link ?? (task.kind === 'link' ? task.url : undefined)) ? { link: link ?? task.url! } : {}), ...(photo ? { photo } : {}) } : {}
    const updated = await out.exec(ctx.uc.advanceTask(task, proof), step === 'validate' ? 'Validating' : 'Sending')
    const after = nextTaskStep(updated.status)
    out.emit(updated, `Task ${updated.task_id} is ${updated.status}${after ? ` · next: axiom tasks ${after} ${updated.task_id}` : ''}\n`)
  },
})

// ── referrals and market ────────────────────────────────────────────────────

const referrals: Command = {
  name: 'referrals',
  args: '',
  summary: 'The friends you invited, and how many are new since you last looked',
  examples: ['axiom referrals'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const { list, badge } = await out.exec(ctx.uc.loadReferrals(), 'Loading referrals')
    ctx.uc.markReferralsSeen(list.length)
    out.emit({ referrals: list, new: badge }, () =>
      (badge ? `${badge} new\n` : '') +
      table(
        list,
        [
          { header: 'ID', value: (r) => String(r.id), align: 'right' },
          { header: 'NAME', value: (r) => r.name ?? '' },
          { header: 'LEVEL', value: (r) => (r.level === undefined ? '-' : String(displayedLevel(r.level))), align: 'right' },
          { header: 'TURNOVER', value: (r) => tokens(r.turnover ?? 0), align: 'right' },
          { header: 'JOINED', value: (r) => when(r.created_at) },
        ],
        'No referrals yet. Share your code (axiom me) to invite friends.',
      ),
    )
  },
}

const signed = (v: number) => `${v > 0 ? '+' : ''}${formatRate(v)} %`

const price: Command = {
  name: 'price',
  args: '',
  summary: 'The AXIOM price in TON, and its change over 24 h and 30 days',
  examples: ['axiom price'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const p = orFail(await out.exec(ctx.uc.loadPrice(), 'Loading the price'))
    out.emit(p, `${fine(p.price)} TON · 24h ${signed(p.price_change_24h)} · 30d ${signed(p.price_change_30d)}\n`)
  },
}

const candles: Command = {
  name: 'candles',
  args: `[--interval ${CANDLE_INTERVALS.join('|')}]`,
  summary: 'A candle chart of the price, sized to the terminal',
  examples: ['axiom candles --interval 1h'],
  options: { interval: { type: 'string' } },
  positionals: [0, 0],
  auth: true,
  async run(ctx, out, a) {
    const interval = (a.values.interval ?? '1h') as CandleInterval
    if (!CANDLE_INTERVALS.includes(interval))
      throw new UsageError(`--interval must be one of ${CANDLE_INTERVALS.join(', ')}, got "${String(a.values.interval)}"`)
    const list = await out.exec(ctx.uc.loadCandles(interval), 'Loading candles')
    const columns = ctx.io.stdout.columns ?? 80
    out.emit(
      list,
      () => `AXIOM/TON · ${interval}\n` + candleChart(list, { columns, rows: 14, color: ctx.io.stdout.isTTY === true }),
    )
  },
}

const history: Command = {
  name: 'history',
  args: '[--page N] [--withdrawals]',
  summary: 'Your operations (or sales with --withdrawals), 10 a page, newest first',
  examples: ['axiom history', 'axiom history --withdrawals --page 2'],
  options: { page: { type: 'string' }, withdrawals: { type: 'boolean' } },
  positionals: [0, 0],
  auth: true,
  async run(ctx, out, a) {
    const page = a.values.page === undefined ? 1 : wholeArg(a.values.page, '--page N')
    if (a.values.withdrawals) {
      const p = await out.exec(ctx.uc.loadWithdrawHistory(page), 'Loading sales')
      out.emit(
        { ...p, page, pages: pageCount(p.total) },
        () => table(p.items, withdrawalColumns, 'No sales') + `page ${page} of ${pageCount(p.total)}\n`,
      )
      return
    }
    const p = await out.exec(ctx.uc.loadOperationsHistory(page), 'Loading history')
    out.emit(
      { ...p, page, pages: pageCount(p.total) },
      () => table(p.items, operationColumns, 'No operations') + `page ${page} of ${pageCount(p.total)}\n`,
    )
  },
}

const watchCommand: Command = {
  name: 'watch',
  args: '[--for SECONDS]',
  summary: 'Live bonds and stakes, rewards ticking every second (Ctrl-C to stop)',
  examples: ['axiom watch', 'axiom watch --json --for 60 > rewards.ndjson'],
  options: { for: { type: 'string' } },
  positionals: [0, 0],
  auth: true,
  async run(ctx, out, a) {
    const seconds = a.values.for === undefined ? undefined : wholeArg(a.values.for, '--for SECONDS')
    await watch(ctx, out, seconds === undefined ? {} : { durationMs: seconds * 1000 })
  },
}

export const COMMANDS: ReadonlyArray<Command> = [
  login,
  me,
  balances,
  mints,
  stakes,
  plans,
  bond,
  walletConnect,
  walletStatus,
  walletDisconnect,
  cancel,
  stake,
  farmCreate,
  farmList,
  farmCancel,
  farmActivate,
  sell,
  transfer,
  tasks,
  taskStep('start'),
  taskStep('validate'),
  taskStep('claim'),
  referrals,
  price,
  candles,
  history,
  watchCommand,
  logout,
]

/** Commands that take a sub-command word. */
export const GROUPS: ReadonlyArray<string> = ['farm', 'tasks', 'wallet']
