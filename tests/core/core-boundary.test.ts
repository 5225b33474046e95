import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filesUnder, importsOf } from '../support/source-imports.ts'

const CORE = join(import.meta.dirname, '../../core')

/** Globals that exist only in a browser or only in Node. */
const PLATFORM_GLOBALS = /\b(window|document|localStorage|sessionStorage|navigator|location|process|Buffer|require|__dirname)\s*[.[(]/

describe('core/ is framework-free', () => {
  const files = filesUnder(CORE)

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(20)
  })

  it.each(files.map((f) => [relative(CORE, f), f]))('%s imports only effect and core files', (_, file) => {
    const source = readFileSync(file, 'utf8')
    for (const spec of importsOf(source)) {
      const ok = spec === 'effect' || spec.startsWith('effect/') || (spec.startsWith('.') && !/\/(adapters|ui|server)\//.test(spec))
      expect(ok, `${relative(CORE, file)} imports '${spec}'`).toBe(true)
      if (spec.startsWith('.')) expect(join(file, '..', spec).startsWith(CORE), `${spec} leaves core/`).toBe(true)
    }
  })

  it.each(files.map((f) => [relative(CORE, f), f]))('%s uses no browser or Node globals', (_, file) => {
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
    expect(code.match(PLATFORM_GLOBALS)?.[0] ?? null, relative(CORE, file)).toBeNull()
  })

  it('would catch a forbidden import', () => {
    expect(importsOf("import { observable } from 'mobx'")).toEqual(['mobx'])
    expect(importsOf("const m = await import('react')")).toEqual(['react'])
    expect(PLATFORM_GLOBALS.test('window.location.reload()')).toBe(true)
  })
})
