import { join } from 'node:path'
import type { KeyValueStore } from '../../core/ports/key-value-store.port.ts'
import { axiomHome } from './axiom-home.ts'
import { JsonFile } from './json-file.ts'

export const STORAGE_FILE_NAME = 'storage.json'

/** The CLI's counterpart of localStorage, in `<dir>/storage.json`, readable by the owner only. */
export class FileKeyValueStore implements KeyValueStore {
  private readonly file: JsonFile

  constructor(dir: string = axiomHome()) {
    this.file = new JsonFile(join(dir, STORAGE_FILE_NAME))
  }

  get(key: string): string | null {
    return this.file.read()[key] ?? null
  }

  set(key: string, value: string): void {
    this.file.update((values) => {
      values[key] = value
    })
  }

  remove(key: string): void {
    this.file.update((values) => {
      delete values[key]
    })
  }

  clear(): void {
    this.file.write({})
  }
}
