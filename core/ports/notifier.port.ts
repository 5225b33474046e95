import type { Notice } from '../domain/notice.ts'

/** Tells the user something in passing: a toast in the app, a line on stderr in the CLI. */
export interface Notifier {
  notify(notice: Notice): void
}
