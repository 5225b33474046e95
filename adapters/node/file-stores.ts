import { join } from 'node:path'
import type { KeyValueStore } from '../../core/ports/key-value-store.port.ts'
import type { SessionKey, SessionStore } from '../../core/ports/session-store.port.ts'
import { axiomHome } from './axiom-home.ts'
import { JsonFile } from './json-file.ts'

export const STORAGE_FILE_NAME = 'storage.json'
export const SESSION_FILE_NAME = 'session.json'

/** A string map in one JSON file (JsonFile: re-read on every get, replaced whole on every write), readable by the owner only. */
class FileStore<K extends string> {
  private readonly file: JsonFile

  constructor(path: string) {
    this.file = new JsonFile(path)
  }

  get(key: K): string | null {
    return this.file.read()[key] ?? null
  }

  set(key: K, value: string): void {
    this.file.update((values) => {
      values[key] = value
    })
  }

  remove(key: K): void {
    this.file.update((values) => {
      delete values[key]
    })
  }

  clear(): void {
    this.file.write({})
  }
}

/** The CLI's counterpart of localStorage, in `<dir>/storage.json`. */
export class FileKeyValueStore extends FileStore<string> implements KeyValueStore {
  constructor(dir: string = axiomHome()) {
    super(join(dir, STORAGE_FILE_NAME))
  }
}

/** The CLI's session tokens, in `<dir>/session.json`. */
export class FileSessionStore extends FileStore<SessionKey> implements SessionStore {
  constructor(dir: string = axiomHome()) {
    super(join(dir, SESSION_FILE_NAME))
  }
}
