import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filesUnder, importsOf } from '../support/source-imports.ts'

const UI = join(import.meta.dirname, '../../ui')
/**
 * The browser entry: the one file that imports the composition root (which owns the adapters), and
 * the early boot, which starts the first requests before the root's chunk has downloaded.
 */
const ENTRY = 'main.ts'
const ENTRY_IMPORTS = ['../adapters/browser/early-boot.ts', '../composition-root.ts']

describe('ui/ talks to view models and use cases, not to adapters', () => {
  const files = filesUnder(UI)

  it.each(files.map((f) => [relative(UI, f), f]))('%s', (name, file) => {
    const reached = importsOf(readFileSync(file, 'utf8')).filter((spec) => /(^|\/)adapters\//.test(spec) || /(^|\/)composition-root\.ts$/.test(spec))
    expect(reached, `${name} imports ${reached.join(', ')}`).toEqual(name === ENTRY ? ENTRY_IMPORTS : [])
  })
})
