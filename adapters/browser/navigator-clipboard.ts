import type { Clipboard } from '../../core/index.ts'

/** The browser's clipboard (navigator.clipboard): false where it is missing or the browser refused. */
export class NavigatorClipboard implements Clipboard {
  constructor(private readonly clipboard: Pick<globalThis.Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard) {}

  writeText(text: string): Promise<boolean> {
    if (!this.clipboard) return Promise.resolve(false)
    return this.clipboard.writeText(text).then(
      () => true,
      () => false,
    )
  }
}
