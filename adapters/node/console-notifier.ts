import type { Notifier, Toast } from '../../core/ports/notifier.port.ts'

const PREFIX: Record<Toast['kind'], string> = { error: '✗', success: '✓', info: '·' }

/** Toasts as lines on stderr, so that they never mix with a command's output on stdout. */
export class ConsoleNotifier implements Notifier {
  constructor(private readonly out: { write(text: string): unknown } = process.stderr) {}

  notify(toast: Toast): void {
    this.out.write(`${PREFIX[toast.kind]} ${toast.text.replace(/\s*\n\s*/g, ' ')}\n`)
  }
}
