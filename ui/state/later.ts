import { makeAutoObservable, observableRef, runInAction } from 'mobx'

/**
 * A value made once, when first needed, from code that loads on its own (a lazy chunk): the view
 * models of the screens beyond the dashboard (ui/features/app-states.ts `ScreenStates`), which no
 * first paint shows. `current` is observable: a component reading it renders again once it is made.
 * A load that failed (its chunk did not download) is tried again by the next `load()`.
 */
export class Later<T> {
  current: T | null = null
  private pending: Promise<T> | null = null

  constructor(private readonly make: () => Promise<T>) {
    makeAutoObservable<this, 'make' | 'pending'>(this, { current: observableRef, make: false, pending: false, load: false })
  }

  /** A value that is already made (tests, a front end that makes it at once). */
  static of<T>(value: T): Later<T> {
    const later = new Later<T>(() => Promise.resolve(value))
    runInAction(() => (later.current = value))
    later.pending = Promise.resolve(value)
    return later
  }

  /** Makes the value, once; the same promise to every caller until it is made or has failed. */
  load(): Promise<T> {
    this.pending ??= this.make().then(
      (value) => {
        runInAction(() => (this.current = value))
        return value
      },
      (error: unknown) => {
        this.pending = null
        throw error
      },
    )
    return this.pending
  }

  /** Runs `use` on the value: at once when it is made (in the caller's task, a user's tap included), else once it is. */
  with(use: (value: T) => void): void {
    if (this.current) use(this.current)
    else void this.load().then(use, () => undefined)
  }
}
