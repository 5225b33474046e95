import { join } from 'node:path'
import type { SessionKey, SessionStore } from '../../core/ports/session-store.port.ts'
import { axiomHome } from './axiom-home.ts'
import { JsonFile } from './json-file.ts'

export const SESSION_FILE_NAME = 'session.json'

/** The CLI's session tokens in `<dir>/session.json`, readable by the owner only. */
export class FileSessionStore implements SessionStore {
  private readonly file: JsonFile

  constructor(dir: string = axiomHome()) {
    this.file = new JsonFile(join(dir, SESSION_FILE_NAME))
  }

  get(key: SessionKey): string | null {
    return this.file.read()[key] ?? null
  }

  set(key: SessionKey, value: string): void {
    this.file.update((values) => {
      values[key] = value
    })
  }

  remove(key: SessionKey): void {
    this.file.update((values) => {
      delete values[key]
    })
  }
}
