import { errorHaptic, type Notice, type Notifier, type Platform } from '../../core/index.ts'

/**
 * How the UI tells the user of an error of its own (spec §8), beside the use cases' failures, which
 * core/error-policy.ts reports: a notice (a refused clipboard), or an error shown in place (a file
 * that is not an image) that gets the haptic alone. Each gives the error haptic.
 */
export class ErrorFeedback {
  constructor(
    private readonly notifier: Notifier,
    private readonly platform: Pick<Platform, 'haptic'>,
  ) {}

  /** An error notice, as a 3 s toast. */
  tell(notice: Notice): void {
    this.notifier.notify(notice)
    this.inPlace()
  }

  /** An error whose words show in place: the haptic alone. */
  inPlace(): void {
    errorHaptic(this.platform)
  }
}
