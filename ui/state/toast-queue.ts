import { makeAutoObservable } from 'mobx'
import { type Notice, type NoticeKind, noticeDurationMs, noticeEnds, noticeKind, type Notifier } from '../../core/index.ts'

export interface ShownToast {
  readonly id: number
  readonly kind: NoticeKind
  /** What to say: the Toasts component renders it in the user's language (ui/i18n). */
  readonly notice: Notice
}

/** The toasts on screen (spec §8: top-left, 3 s). It is the app's Notifier. */
export class ToastQueue implements Notifier {
  toasts: ShownToast[] = []
  private nextId = 1

  constructor(private readonly timers: { setTimeout: (fn: () => void, ms: number) => unknown } = globalThis) {
    makeAutoObservable<this, 'timers' | 'nextId'>(this, { timers: false, nextId: false })
  }

  notify(notice: Notice): void {
    const shown = { id: this.nextId++, kind: noticeKind(notice), notice }
    this.toasts = [...this.toasts.filter((t) => !noticeEnds(notice, t.notice)), shown]
    this.timers.setTimeout(() => this.dismiss(shown.id), noticeDurationMs(notice))
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id)
  }
}
