/**
 * Resolves once the first routed screen has been committed and painted. Code that is not needed
 * for that first paint (the TON Connect wallet widget, ~120 KiB gz) waits for it, so it does not
 * compete with the dashboard for the network and the main thread.
 */
let signal: () => void = () => undefined
const painted = new Promise<void>((resolve) => {
  signal = resolve
})

/** Called by the layout once a screen (not the fallback) is on screen. */
export const markFirstScreenPainted = (): void => {
  // Passive effects run after the browser painted the commit; a macrotask more lets that paint
  // finish. (Not requestAnimationFrame: Chromium withholds frames from an iframe it throttles.)
  setTimeout(() => {
    performance.mark('axiom:first-screen-painted')
    signal()
  }, 0)
}

/** The first screen has painted, or `timeoutMs` passed (so nothing waits forever). */
export const firstScreenPainted = (timeoutMs = 10_000): Promise<void> =>
  Promise.race([painted, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))])
