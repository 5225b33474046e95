/**
 * Resolves in a later task, so the browser can paint and handle input between two pieces of work
 * (a long task holds both). `scheduler.yield` where the browser has it (it resumes ahead of other
 * queued work), else a zero timeout.
 */
export const nextTask = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  return scheduler?.yield ? scheduler.yield() : new Promise<void>((resolve) => setTimeout(resolve, 0))
}
