/** The current time. `{ nowMs: () => fixed }` is a complete fake. */
export interface Clock {
  nowMs(): number
}

export const nowSeconds = (clock: Clock): number => Math.floor(clock.nowMs() / 1000)
