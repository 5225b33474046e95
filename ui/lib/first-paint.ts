/**
 * Resolves once the first routed screen has painted with what it shows first (on the dashboard, the
 * balances). Code and requests that are not needed for that paint (the TON Connect wallet widget,
 * ~120 KiB gz, the Telegram SDK, the chart, the lists below the fold) wait for it, so they do not
 * compete with the dashboard for the network and the main thread.
 *
 * Two things must have happened: the layout committed a screen (not the fallback), and the app has
 * the data it asked for before the first paint (`firstScreenWithData`, called by the app's start).
 * Then a frame more, for the browser to paint them.
 */
import { afterNextPaint, nextTask } from './next-task.ts'

const signal = () => {
  let resolve: () => void = () => undefined
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}
const screenMounted = signal()
const painted = signal()

/** Called by the layout once a screen (not the fallback) has been committed. */
export const markFirstScreenMounted = (): void => screenMounted.resolve()

/**
 * Called once the data the first screen shows first is in: resolves when that screen has painted
 * with it. A passive effect, or the task after one, may still run before the browser paints (it did
 * in Chromium), so this waits for frames.
 */
export const firstScreenWithData = async (): Promise<void> => {
  await screenMounted.promise
  // The frame that paints it, then the next: by then the first one has reached the screen (the
  // compositor presents a frame after the main thread has painted it).
  await afterNextPaint()
  await afterNextPaint()
  performance.mark('axiom:first-screen-painted')
  painted.resolve()
}

/**
 * The first screen has painted with its first data, or `timeoutMs` passed (so nothing waits forever).
 * Each caller resumes in a task of its own: what waits for that paint (the wallet widget, the
 * Telegram SDK, the platform's features, the chart, the lists below the fold, the start's next
 * requests) would otherwise all run in the one task that resolved it, a long task at the moment
 * the user first sees the dashboard.
 */
export const firstScreenPainted = (timeoutMs = 10_000): Promise<void> =>
  Promise.race([painted.promise, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]).then(nextTask)
