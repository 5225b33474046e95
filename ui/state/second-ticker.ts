import { makeAutoObservable } from 'mobx'
import { type Clock, nowSeconds } from '../../core/index.ts'

/** The current second, observable: rewards and "earned today" tick from it (spec §4). */
export class SecondTicker {
  now: number
  private timer: ReturnType<typeof setInterval> | null = null

  constructor(private readonly clock: Clock) {
    this.now = nowSeconds(clock)
    makeAutoObservable<this, 'timer' | 'clock'>(this, { timer: false, clock: false })
  }

  tick(): void {
    this.now = nowSeconds(this.clock)
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(), 1_000)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}
