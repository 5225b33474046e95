import { makeAutoObservable, runInAction } from 'mobx'
import type { BackgroundReads, LiveEvent, ReconnectingSocket, SocketStatus, UseCases } from '../../core/index.ts'

/** The reconnect refetch tries again after 1 s, 2 s, 4 s, … and never waits longer than this. */
export const RECONNECT_REFETCH_BACKOFF_MS = { first: 1_000, max: 30_000 } as const

/** Runs `run` after `ms`; answers how to cancel it. */
export type Schedule = (run: () => void, ms: number) => () => void

const scheduleWithTimer: Schedule = (run, ms) => {
  const t = setTimeout(run, ms)
  return () => clearTimeout(t)
}

export interface LiveConnectionDeps {
  readonly uc: Pick<UseCases, 'openLiveFeed'>
  readonly background: BackgroundReads
  /** Every live event, in order. */
  readonly onEvent: (event: LiveEvent) => void
  /** Reads the user and the lists again; answers once every read came back. */
  readonly refetchAll: () => Promise<void>
  readonly schedule?: Schedule
}

/**
 * The main socket, and the refetch after it reopens. Events sent while it was down are not sent
 * again (the server greets a socket with the balance only), so when it opens again after a drop the
 * user and the lists are refetched. Not as soon as it opens: the server subscribes the socket once it
 * has checked the token, and then greets it (`user:balance` first, docs/api.md). A refetch read
 * before that could miss a record made in between, whose event went to nobody; one made after the
 * greeting cannot.
 */
export class LiveConnection {
  status: SocketStatus = 'closed'
  private socket: ReconnectingSocket | null = null
  /** Bumped when the socket leaves 'open' or the app stops: a reconnect refetch of an older round gives up. */
  private round = 0
  private cancelRetry: (() => void) | null = null

  constructor(private readonly deps: LiveConnectionDeps) {
    makeAutoObservable<this, 'deps' | 'socket' | 'round' | 'cancelRetry'>(this, {
      deps: false,
      socket: false,
      round: false,
      cancelRetry: false,
    })
  }

  /** Opens the socket. `readBeforeListening`: what was read before it listened, read again once it is greeted. */
  open(readBeforeListening?: () => Promise<void>): void {
    let wasOpen = false
    let awaitingGreeting = false
    this.socket = this.deps.uc.openLiveFeed(
      (e) => {
        this.deps.onEvent(e)
        if (!awaitingGreeting) return
        awaitingGreeting = false
        if (!readBeforeListening) return this.reconnectRefetch()
        // The first greeting: what the start read well before the socket listened is read again.
        const read = readBeforeListening
        readBeforeListening = undefined
        void this.deps.background.run(read)
      },
      (status) => {
        runInAction(() => (this.status = status))
        if (status !== 'open') {
          awaitingGreeting = false
          return this.endReconnectRefetch()
        }
        if (wasOpen || readBeforeListening) awaitingGreeting = true
        wasOpen = true
      },
    )
  }

  ensureOpen(): void {
    this.socket?.ensureOpen()
  }

  close(): void {
    this.endReconnectRefetch()
    this.socket?.close()
  }

  /**
   * The refetch after a reconnect, made quietly (`BackgroundReads`): a read that gets no answer is not
   * told and does not empty its list. Until every read came back it is made again after 1 s, 2 s,
   * 4 s, … (at most 30 s apart), for as long as the socket stays open: a backend that just restarted
   * or a gateway error must not leave the app behind until the next drop or return into view.
   */
  private reconnectRefetch(): void {
    this.endReconnectRefetch()
    const round = this.round
    const schedule = this.deps.schedule ?? scheduleWithTimer
    const attempt = async (waitMs: number): Promise<void> => {
      const complete = await this.deps.background.run(this.deps.refetchAll)
      if (complete || round !== this.round) return
      this.cancelRetry = schedule(() => {
        this.cancelRetry = null
        if (round === this.round) void attempt(Math.min(waitMs * 2, RECONNECT_REFETCH_BACKOFF_MS.max))
      }, waitMs)
    }
    void attempt(RECONNECT_REFETCH_BACKOFF_MS.first)
  }

  private endReconnectRefetch(): void {
    this.round++
    this.cancelRetry?.()
    this.cancelRetry = null
  }
}
