import { Effect } from 'effect'
import {
  type BalanceUpdate,
  earningPerSecond,
  keepNewestPending,
  type LiveEvent,
  liveRecordNotice,
  noticeText,
  type Mint,
  mergeLiveRecord,
  nowSeconds,
  type Price,
  type SocketStatus,
  type Stake,
} from '../../core/index.ts'
import { wholeArg } from '../args.ts'
import type { CliContext } from '../context.ts'
import { fine, type Out, toJson, tokens } from '../output.ts'
import { recordColumns, withReward } from '../records.ts'
import { table } from '../table.ts'
import type { Command } from './command.ts'
import { COIN } from '../../core/domain/constants.ts'

export interface WatchOptions {
  /** Stop after this long (`--for`); otherwise only the abort signal (Ctrl-C) stops it. */
  readonly durationMs?: number
  readonly tickMs?: number
}

/** What `watch` keeps: plain objects, changed only through the core's pure transitions. */
interface WatchState {
  mints: Mint[]
  stakes: Stake[]
  balances: BalanceUpdate | null
  price: Price | null
  collectiveBonus: number | null
  status: SocketStatus
}

const CLEAR_SCREEN = '\x1b[H\x1b[2J'

/**
 * Live bonds and stakes. The rewards are recomputed every second with the core's rewardAt; socket
 * events arrive through the core's openMainSocket (decodeLiveEvent, liveMintToMint) and are merged
 * with mergeLiveRecord into the whole list, and keepNewestPending applies when it is shown, exactly
 * as the mini app's view models do (a pending bond hidden by a newer one shows again once that one
 * is paid).
 *
 * Output: on a terminal the screen is redrawn every second; piped, a frame is printed at start and
 * after every event of the user's; with --json, one JSON object a line (NDJSON): `status`, `event`
 * and `snapshot` (every second and after each event).
 */
export const watch = async (ctx: CliContext, out: Out, o: WatchOptions = {}): Promise<void> => {
  const { uc, io } = ctx
  const [mints, stakes, user] = await Promise.all([
    out.exec(uc.loadMintRecords(), 'Loading bonds'),
    out.exec(uc.loadStakeRecords(), 'Loading stakes'),
    out.exec(uc.loadUser(), 'Loading balances'),
  ])
  const state: WatchState = {
    mints,
    stakes,
    balances: user,
    price: null,
    collectiveBonus: user?.collective_bonus ?? null,
    status: 'connecting',
  }
  const tty = io.stdout.isTTY === true && !out.json
  const now = () => nowSeconds(ctx.clock)
  const line = (data: unknown) => io.stdout.write(`${toJson(data)}\n`)

  const snapshot = () => {
    const t = now()
    return {
      type: 'snapshot',
      at: t,
      socket: state.status,
      mints: keepNewestPending(state.mints, t).map((m) => withReward(m, t)),
      stakes: keepNewestPending(state.stakes, t).map((s) => withReward(s, t)),
      balances: state.balances,
      price: state.price,
    }
  }

  const frame = (): string => {
    const t = now()
    const b = state.balances
    const rate = earningPerSecond(state.stakes)
    return (
      `AXIOM · ${ctx.origin} · socket ${state.status} · ${new Date(t * 1000).toISOString().slice(11, 19)} UTC` +
      (tty ? ' · Ctrl-C to stop' : '') +
      '\n' +
      (b ? `Balance ${tokens(b.balance_token)} · task ${tokens(b.task_balance)} · referral ${tokens(b.referral_balance)}` : '') +
      (state.price ? ` · price ${fine(state.price.price)} ${COIN}` : '') +
      '\n\nBonds\n' +
      table(keepNewestPending(state.mints, t), recordColumns<Mint>(t), 'No bonds') +
      '\nStakes\n' +
      table(keepNewestPending(state.stakes, t), recordColumns<Stake>(t), 'No stakes') +
      (rate > 0 ? `\nStakes earn ${fine(rate)} AXIOM a second\n` : '')
    )
  }

  const render = (reason: 'tick' | 'event' | 'start') => {
    if (out.json) {
      line(snapshot())
      return
    }
    if (tty) io.stdout.write(CLEAR_SCREEN + frame())
    else if (reason !== 'tick') io.stdout.write(frame() + '\n')
  }

  const refreshMints = () =>
    void Effect.runPromise(Effect.result(uc.loadMintRecords())).then((r) => {
      if (r._tag === 'Success') state.mints = r.success
    })

  const onEvent = (e: LiveEvent) => {
    switch (e.event) {
      case 'price_update':
        state.price = e.data
        return
      case 'current_candle':
        return
      case 'global:collective_bonus':
        state.collectiveBonus = e.data.collective_bonus
        break
      case 'user:balance':
        state.balances = e.data
        break
      case 'user:mint': {
        state.mints = mergeLiveRecord(state.mints, e.data)
        const notice = liveRecordNotice('mint', e.data.status, false)
        if (notice) ctx.notifier.line('success', `${noticeText(notice)} (#${e.data.id})`)
        break
      }
      case 'user:staking': {
        state.stakes = mergeLiveRecord(state.stakes, e.data)
        const notice = liveRecordNotice('stake', e.data.status, false)
        if (notice) ctx.notifier.line('success', `${noticeText(notice)} (#${e.data.id})`)
        refreshMints()
        break
      }
    }
    if (out.json) line({ type: 'event', event: e.event, data: e.data })
    else if (!tty) io.stdout.write(`· ${e.event}\n`)
    render('event')
  }

  const onStatus = (status: SocketStatus) => {
    state.status = status
    if (out.json) line({ type: 'status', socket: status })
  }

  render('start')
  const socket = uc.openLiveFeed(onEvent, onStatus)
  await new Promise<void>((resolve) => {
    const ticker = setInterval(() => render('tick'), o.tickMs ?? 1000)
    const stop = () => {
      clearInterval(ticker)
      if (timer) clearTimeout(timer)
      io.signal?.removeEventListener('abort', stop)
      resolve()
    }
    const timer = o.durationMs === undefined ? undefined : setTimeout(stop, o.durationMs)
    if (io.signal?.aborted) stop()
    else io.signal?.addEventListener('abort', stop, { once: true })
  })
  socket.close()
  if (tty) io.stdout.write(CLEAR_SCREEN + frame())
}

export const watchCommand: Command = {
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
