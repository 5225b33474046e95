import type { Notifier, Toast } from '../../../core/index.ts'

/** Keeps every toast, in order. */
export class RecordingNotifier implements Notifier {
  readonly toasts: Toast[] = []

  notify(toast: Toast): void {
    this.toasts.push(toast)
  }

  get texts(): string[] {
    return this.toasts.map((t) => t.text)
  }
}
