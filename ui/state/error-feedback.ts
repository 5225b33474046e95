import { type AppError, errorHaptic, type Feedback, reportErrorText, reportUnlessReported } from '../../core/index.ts'

/**
 * The one way the UI tells the user of an error (spec §8): a use case's failure, an error the UI
 * words itself (a refused clipboard), or one shown beside its field (a file that is not an image).
 * Each gives the error haptic, through the core's reporting.
 */
export class ErrorFeedback {
  constructor(private readonly feedback: Feedback) {}

  /** A use case's failure, unless the API client already reported it. */
  report(error: AppError): void {
    reportUnlessReported(this.feedback)(error)
  }

  /** An error in the UI's own words, as a 3 s toast. */
  toast(text: string): void {
    reportErrorText(this.feedback)(text)
  }

  /** An error whose words show in place: the haptic alone. */
  inPlace(): void {
    errorHaptic(this.feedback)
  }
}
