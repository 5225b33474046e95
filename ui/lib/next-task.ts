/**
 * Resolves in a later task, so the browser can paint and handle input between two pieces of work
 * (a long task holds both). `scheduler.yield` where the browser has it (it resumes ahead of other
 * queued work), else a zero timeout.
 */
export const nextTask = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  return scheduler?.yield ? scheduler.yield() : new Promise<void>((resolve) => setTimeout(resolve, 0))
}

/**
 * Resolves once the browser has painted what is on the page now (a frame, then a task after it),
 * or after `fallbackMs` when the browser withholds frames (a hidden or throttled frame). Neither a
 * task nor React's passive effects are that: both may run before the browser paints.
 */
export const afterNextPaint = (fallbackMs = 100): Promise<void> =>
  new Promise<void>((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(resolve, 0))
    setTimeout(resolve, fallbackMs)
  })
