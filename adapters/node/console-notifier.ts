import type { NoticeKind } from '../../core/ports/notifier.port.ts'

const PREFIX: Record<NoticeKind, string> = { error: '✗', success: '✓', info: '·' }

/** Notices as marked lines on stderr, so that they never mix with a command's output on stdout. */
export class ConsoleNotifier {
  constructor(private readonly out: { write(text: string): unknown } = process.stderr) {}

  line(kind: NoticeKind, text: string): void {
    this.out.write(`${PREFIX[kind]} ${text.replace(/\s*\n\s*/g, ' ')}\n`)
  }
}
