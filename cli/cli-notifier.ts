import { type Notice, noticeKind, type NoticeKind, noticeText, type Notifier } from '../core/index.ts'

const PREFIX: Record<NoticeKind, string> = { error: '✗', success: '✓', info: '·' }

/**
 * Notices in English, each as one marked line on stderr (never on stdout, which stays
 * machine-readable with --json).
 */
export class CliNotifier implements Notifier {
  constructor(private readonly out: { write(text: string): unknown }) {}

  notify(notice: Notice): void {
    this.line(noticeKind(notice), noticeText(notice))
  }

  /** A line of the CLI's own, marked as a notice of `kind` is. */
  line(kind: NoticeKind, text: string): void {
    this.out.write(`${PREFIX[kind]} ${text.replace(/\s*\n\s*/g, ' ')}\n`)
  }
}
