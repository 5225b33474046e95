import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filesUnder, importsOf } from '../support/source-imports.ts'

const UI = join(import.meta.dirname, '../../ui')
/** The boot step that hands the adapters to the composition root (docs/architecture.md). */
const MEETS_ADAPTERS = 'start-app.ts'
/** The entry, which starts the early requests through one adapter file and nothing else. */
const ENTRY = 'main.ts'
const ENTRY_ADAPTER = '../adapters/browser/early-boot.ts'

describe('ui/ talks to view models and use cases, not to adapters', () => {
  const files = filesUnder(UI)

  it.each(files.map((f) => [relative(UI, f), f]))('%s', (name, file) => {
    const reached = importsOf(readFileSync(file, 'utf8')).filter((spec) => /(^|\/)adapters\//.test(spec) || spec === '../composition-root.ts')
    const allowed = name === MEETS_ADAPTERS ? reached : name === ENTRY ? [ENTRY_ADAPTER] : []
    expect(reached, `${name} imports ${reached.join(', ')}`).toEqual(allowed)
  })

  it(`only ${MEETS_ADAPTERS} meets the adapters and the composition root`, () => {
    const source = readFileSync(join(UI, MEETS_ADAPTERS), 'utf8')
    expect(importsOf(source)).toEqual(expect.arrayContaining(['../adapters/browser/browser-ports.ts', '../composition-root.ts']))
  })
})
