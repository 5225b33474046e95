import { type Notice, noticeKind, noticeText, type Notifier } from '../../../core/index.ts'
import { ConsoleNotifier } from '../console-notifier.ts'

/** Notices in English, as lines on stderr (never on stdout, which stays machine-readable with --json). */
export class CliNotifier implements Notifier {
  private readonly console: ConsoleNotifier

  constructor(out: { write(text: string): unknown }) {
    this.console = new ConsoleNotifier(out)
  }

  notify(notice: Notice): void {
    this.console.line(noticeKind(notice), noticeText(notice))
  }

  /** A line of the CLI's own, marked as a notice of `kind` is. */
  line(kind: Parameters<ConsoleNotifier['line']>[0], text: string): void {
    this.console.line(kind, text)
  }
}
