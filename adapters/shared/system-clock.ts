import type { Clock } from '../../core/ports/clock.port.ts'

/** The machine's wall clock. */
export class SystemClock implements Clock {
  nowMs(): number {
    return Date.now()
  }
}
