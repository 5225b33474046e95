import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { filesUnder, importsOf } from '../support/source-imports.ts'

export const ROOT = resolve(import.meta.dirname, '../..')

/** The product's code: everything that ships or runs, not the tests or the dev scripts. */
export const PRODUCT_PARTS = ['core', 'adapters', 'ui', 'cli', 'bot', 'server', 'stand-ins'] as const

/** Repo-relative path → the repo-relative files it imports (relative specifiers that resolve to a file). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>

export const productFiles = (): string[] => [
  ...PRODUCT_PARTS.flatMap((p) => (existsSync(join(ROOT, p)) ? filesUnder(join(ROOT, p)) : [])),
  join(ROOT, 'composition-root.ts'),
]

export const importGraph = (files: readonly string[] = productFiles()): ImportGraph =>
  new Map(
    files.map((file) => [
      relative(ROOT, file),
      importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolve(dirname(file), spec))
        .filter((target) => existsSync(target))
        .map((target) => relative(ROOT, target)),
    ]),
  )

/** Every import circle (a strongly connected set of more than one file, or a file importing itself). */
export const importCircles = (graph: ImportGraph): string[][] => {
  let index = 0
  const indexOf = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const visit = (v: string) => {
    indexOf.set(v, index)
    low.set(v, index++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!))
    }
    if (low.get(v) === indexOf.get(v)) {
      const scc: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(scc.sort())
    }
  }
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v)
  return circles
}

/** The imports of files under `from` that reach a file matching `to`, as 'a → b' lines. */
export const importsFromTo = (graph: ImportGraph, from: string, to: (target: string) => boolean): string[] =>
  [...graph].flatMap(([file, targets]) => (file.startsWith(from) ? targets.filter(to).map((t) => `${file} → ${t}`) : []))
