import type { Clock } from '../../../core/index.ts'

/** A clock that only moves when the test moves it. */
export class FixedClock implements Clock {
  constructor(private ms = 1_700_000_000_000) {}

  nowMs(): number {
    return this.ms
  }

  set(ms: number): void {
    this.ms = ms
  }

  advance(ms: number): void {
    this.ms += ms
  }

  get nowSeconds(): number {
    return Math.floor(this.ms / 1000)
  }
}
