import { type Notice, noticeText, type Notifier } from '../../../core/index.ts'

/** Keeps every notice, in order. */
export class RecordingNotifier implements Notifier {
  readonly notices: Notice[] = []

  notify(notice: Notice): void {
    this.notices.push(notice)
  }

  /** The notices as an English reader sees them. */
  get texts(): string[] {
    return this.notices.map(noticeText)
  }
}
