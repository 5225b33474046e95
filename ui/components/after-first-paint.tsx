import { type ReactNode, useEffect, useState } from 'react'
import { firstScreenPainted } from '../app/first-paint.ts'
import { nextTask } from '../lib/next-task.ts'

/** Set once the first screen has painted: from then on, what waits for it renders at once. */
let firstPaintDone = false

/**
 * Renders its children once the first screen has painted, in a task of their own: the part of a
 * screen below what the user reads first (the dashboard's stats and bonds under its balances), so
 * the first commit, its layout and its paint are smaller and the balances show sooner. Later
 * visits of the screen render it at once. Content added below what is on screen moves nothing.
 */
export function AfterFirstPaint({ children }: { readonly children: ReactNode }) {
  const [ready, setReady] = useState(firstPaintDone)
  useEffect(() => {
    if (ready) return
    let live = true
    void firstScreenPainted()
      .then(nextTask)
      .then(() => {
        firstPaintDone = true
        if (live) setReady(true)
      })
    return () => {
      live = false
    }
  }, [ready])
  return ready ? children : null
}
