/** The system clipboard. */
export interface Clipboard {
  /** Resolves true once `text` is on the clipboard, false when the system refused it. */
  writeText(text: string): Promise<boolean>
}
