export type ToastKind = 'error' | 'success' | 'info'

export interface Toast {
  readonly kind: ToastKind
  readonly text: string
  readonly durationMs?: number
}

/** Tells the user something in passing: a toast in the app, a line on stderr in the CLI. */
export interface Notifier {
  notify(toast: Toast): void
}
