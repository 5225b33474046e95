import { makeAutoObservable } from 'mobx'
import { TOAST_DURATION_MS, type Notifier, type Toast } from '../../core/index.ts'

export interface ShownToast extends Toast {
  readonly id: number
}

/** The toasts on screen (spec §8: top-left, 3 s). It is the app's Notifier. */
export class ToastQueue implements Notifier {
  toasts: ShownToast[] = []
  private nextId = 1

  constructor(private readonly timers: { setTimeout: (fn: () => void, ms: number) => unknown } = globalThis) {
    makeAutoObservable<this, 'timers' | 'nextId'>(this, { timers: false, nextId: false })
  }

  notify(toast: Toast): void {
    const shown = { ...toast, id: this.nextId++ }
    this.toasts.push(shown)
    this.timers.setTimeout(() => this.dismiss(shown.id), toast.durationMs ?? TOAST_DURATION_MS)
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id)
  }
}
