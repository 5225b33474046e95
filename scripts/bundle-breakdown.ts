/**
 * Where a chunk's gzip bytes go, by source module: `npm run bench:bundle -- --modules`.
 *
 * The build writes hidden source maps; every byte of a minified chunk is charged to the module its
 * source map names (the bundler's own glue, imports/exports and runtime, to "(glue)"), and the
 * chunk's gzip -9 size is shared out in proportion. gzip works on the whole chunk, so this is an
 * attribution, not the exact saving of removing a module, but it adds up to the measured size.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type RawSourceMap, SourceMapConsumer } from 'source-map-js'

export interface ModuleShare {
  readonly chunk: string
  /** `package/path` for a dependency, the path in the repository for the app's own code. */
  readonly module: string
  readonly gz: number
}

const GLUE = '(glue)'

const moduleName = (source: string): string => {
  const i = source.lastIndexOf('node_modules/')
  if (i >= 0) return source.slice(i + 'node_modules/'.length)
  const app = source.match(/(?:^|\/)((?:ui|core|adapters)\/.*|composition-root\.ts)$/)
  return app ? app[1]! : GLUE
}

/** A package's name, or the app folder (two levels) a module is in. */
export const packageOf = (module: string): string => {
  if (module === GLUE) return module
  const parts = module.split('/')
  if (/^(ui|core|adapters)$/.test(parts[0]!)) return parts.slice(0, 2).join('/')
  if (parts[0] === 'composition-root.ts') return parts[0]
  return parts.slice(0, parts[0]!.startsWith('@') ? 2 : 1).join('/')
}

/**
 * The shares of one chunk's gzip size `gz`, from the chunk and the source map written in `outDir`
 * (the file as written: plugins may still rewrite a chunk after the bundle is generated).
 */
export const chunkShares = (outDir: string, fileName: string, gz: number): ModuleShare[] => {
  // A chunk of styles only (a lazily imported CSS file) has no JS file: the build removes it.
  if (!existsSync(join(outDir, fileName))) return []
  const code = readFileSync(join(outDir, fileName), 'utf8')
  let map: RawSourceMap | null = null
  try {
    map = JSON.parse(readFileSync(join(outDir, `${fileName}.map`), 'utf8')) as RawSourceMap
  } catch {
    // A chunk without a map (the bundler's runtime) is all glue.
  }
  if (!map) return [{ chunk: fileName, module: GLUE, gz }]
  const lineStart: number[] = []
  let offset = 0
  for (const line of code.split('\n')) {
    lineStart.push(offset)
    offset += line.length + 1
  }
  const marks: { at: number; module: string }[] = []
  new SourceMapConsumer(map).eachMapping((m) => {
    marks.push({ at: lineStart[m.generatedLine - 1]! + m.generatedColumn, module: m.source ? moduleName(m.source) : GLUE })
  })
  marks.sort((a, b) => a.at - b.at)
  const bytes = new Map<string, number>([[GLUE, marks.length ? marks[0]!.at : code.length]])
  marks.forEach((m, i) => {
    const end = i + 1 < marks.length ? marks[i + 1]!.at : code.length
    bytes.set(m.module, (bytes.get(m.module) ?? 0) + end - m.at)
  })
  return [...bytes].filter(([, b]) => b > 0).map(([module, b]) => ({ chunk: fileName, module, gz: (gz * b) / code.length }))
}

/** The largest groups of `shares` by `key`, as printable lines. */
export const top = (shares: readonly ModuleShare[], key: (s: ModuleShare) => string, count: number): string[] => {
  const by = new Map<string, number>()
  for (const s of shares) by.set(key(s), (by.get(key(s)) ?? 0) + s.gz)
  return [...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, gz]) => `${(gz / 1024).toFixed(2).padStart(8)} KiB  ${name}`)
}
