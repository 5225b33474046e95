import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** Owner-only: the files hold session tokens. */
const FILE_MODE = 0o600
const DIR_MODE = 0o700

/**
 * A flat string map kept in one JSON file. Reads go to the file each time, so two CLI runs see
 * each other's writes; writes replace the file whole (write then rename), so a crash never
 * leaves half a file. A missing or unreadable file reads as empty.
 */
export class JsonFile {
  constructor(readonly path: string) {}

  read(): Record<string, string> {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch {
      return {}
    }
    try {
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
      return Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    } catch {
      return {}
    }
  }

  write(values: Record<string, string>): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: DIR_MODE })
    const temp = `${this.path}.${process.pid}.tmp`
    writeFileSync(temp, `${JSON.stringify(values, null, 2)}\n`, { mode: FILE_MODE })
    renameSync(temp, this.path)
  }

  update(change: (values: Record<string, string>) => void): void {
    const values = this.read()
    change(values)
    this.write(values)
  }
}
