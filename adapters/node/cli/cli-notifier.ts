import type { Notifier, Toast } from '../../../core/index.ts'
import { ConsoleNotifier } from '../console-notifier.ts'

/**
 * Toasts as lines on stderr (never on stdout, which stays machine-readable with --json). It counts
 * the errors it showed: the API client reports each failed call itself, so the CLI knows a call
 * failed even when a read fell back to an empty answer (spec §8).
 */
export class CliNotifier implements Notifier {
  errors = 0
  private readonly console: ConsoleNotifier

  constructor(out: { write(text: string): unknown }) {
    this.console = new ConsoleNotifier(out)
  }

  notify(toast: Toast): void {
    if (toast.kind === 'error') this.errors++
    this.console.notify(toast)
  }
}
