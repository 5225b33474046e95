import { describe, expect, it } from 'vitest'
import { importCircles, importGraph, importsFromTo, type ImportGraph, PRODUCT_PARTS } from './import-graph.ts'

/**
 * The import rules of docs/architecture.md, over the product's real import graph. Each rule is a
 * function of a graph, so the same rule is also shown catching a violation in a small made-up graph.
 */

/** The whole product's code (tests/architecture/import-graph.ts). */
const PRODUCT = [...PRODUCT_PARTS.map((p) => `${p}/`), 'composition-root.ts'] as const

/** The files of server/ a stand-in may import: the backend's documented programmatic entry (docs/local-stack.md). */
const SERVER_ENTRY = ['server/main.ts'] as const

const inParts = (parts: readonly string[]) => (file: string) => parts.some((p) => file.startsWith(p))

/** The graph restricted to files in `parts` (and the imports between them). */
const within = (graph: ImportGraph, parts: readonly string[]): ImportGraph => {
  const keep = inParts(parts)
  return new Map([...graph].filter(([file]) => keep(file)).map(([file, targets]) => [file, targets.filter(keep)]))
}

/** (a) No import circles. */
const circlesIn = (graph: ImportGraph, parts: readonly string[]) => importCircles(within(graph, parts))

/** (b) adapters/ never imports the composition root, ui/ or cli/. */
const adapterReachesUp = (graph: ImportGraph, parts: readonly string[]) =>
  importsFromTo(within(graph, [...parts, 'composition-root.ts', 'ui/', 'cli/']), 'adapters/', (t) =>
    t === 'composition-root.ts' || t.startsWith('ui/') || t.startsWith('cli/'),
  ).filter((line) => inParts(parts)(line))

/** (c) The backend never imports the stand-ins. */
const backendReachesStandIns = (graph: ImportGraph) => importsFromTo(graph, 'server/', (t) => t.startsWith('stand-ins/'))

/** (d) A stand-in imports from server/ only its programmatic entry. */
const standInPastEntry = (graph: ImportGraph) =>
  importsFromTo(graph, 'stand-ins/', (t) => t.startsWith('server/') && !(SERVER_ENTRY as readonly string[]).includes(t))

/** (e) The backend's domain never imports its HTTP side or its sockets: it returns rows, they make JSON. */
const domainReachesWire = (graph: ImportGraph) =>
  importsFromTo(graph, 'server/domain/', (t) => ['server/http/', 'server/routes/', 'server/sockets/'].some((p) => t.startsWith(p)))

/** (f) The two applications on the core stay apart: cli/ never imports ui/, ui/ never imports cli/. */
const applicationsMeet = (graph: ImportGraph) => [
  ...importsFromTo(graph, 'cli/', (t) => t.startsWith('ui/')),
  ...importsFromTo(graph, 'ui/', (t) => t.startsWith('cli/')),
]

describe('import rules of the product', () => {
  const graph = importGraph()

  it('sees the backend and the stand-ins', () => {
    expect(graph.has('server/main.ts')).toBe(true)
    expect(graph.has('stand-ins/local-ton.ts')).toBe(true)
    expect(importsFromTo(graph, 'stand-ins/', (t) => t === 'server/main.ts').length).toBeGreaterThan(0)
  })

  it('(a) has no import circles anywhere in the product', () => {
    expect(circlesIn(graph, PRODUCT)).toEqual([])
  })

  it('(b) adapters import neither the composition root, ui/ nor cli/', () => {
    expect(adapterReachesUp(graph, PRODUCT)).toEqual([])
  })

  it('(c) the backend never imports the stand-ins', () => {
    expect(backendReachesStandIns(graph)).toEqual([])
  })

  it('(d) the stand-ins import from server/ only its programmatic entry', () => {
    expect(standInPastEntry(graph)).toEqual([])
  })

  it('(e) the backend domain imports neither server/http, server/routes nor server/sockets', () => {
    expect(graph.has('server/domain/mints.ts')).toBe(true)
    expect(domainReachesWire(graph)).toEqual([])
  })

  it('(f) cli/ and ui/ never import each other', () => {
    expect(graph.has('cli/run.ts')).toBe(true)
    expect(graph.has('ui/start-app.ts')).toBe(true)
    expect(applicationsMeet(graph)).toEqual([])
  })
})

describe('each rule catches a violation', () => {
  const g = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges))

  it('(a) a circle, also one through three files, inside a checked part only', () => {
    const graph = g({
      'server/a.ts': ['server/b.ts'],
      'server/b.ts': ['server/c.ts'],
      'server/c.ts': ['server/a.ts'],
      'adapters/x.ts': ['adapters/y.ts'],
      'adapters/y.ts': ['adapters/x.ts'],
    })
    expect(circlesIn(graph, ['server/'])).toEqual([['server/a.ts', 'server/b.ts', 'server/c.ts']])
    expect(circlesIn(graph, ['server/', 'adapters/'])).toHaveLength(2)
    expect(circlesIn(g({ 'server/a.ts': ['server/b.ts'], 'server/b.ts': [] }), ['server/'])).toEqual([])
  })

  it('(b) an adapter importing the composition root, ui/ or cli/', () => {
    const graph = g({
      'adapters/browser/p.ts': ['composition-root.ts', 'core/index.ts'],
      'adapters/node/q.ts': ['ui/start-app.ts', 'cli/main.ts'],
      'ui/start-app.ts': ['adapters/browser/p.ts'],
    })
    expect(adapterReachesUp(graph, ['adapters/'])).toEqual([
      'adapters/browser/p.ts → composition-root.ts',
      'adapters/node/q.ts → ui/start-app.ts',
      'adapters/node/q.ts → cli/main.ts',
    ])
    expect(adapterReachesUp(graph, ['server/'])).toEqual([])
  })

  it('(c) the backend importing a stand-in', () => {
    const graph = g({ 'server/start-server.ts': ['stand-ins/chain/watcher.ts'], 'stand-ins/main.ts': ['server/main.ts'] })
    expect(backendReachesStandIns(graph)).toEqual(['server/start-server.ts → stand-ins/chain/watcher.ts'])
  })

  it('(d) a stand-in importing a server file other than the entry', () => {
    const graph = g({ 'stand-ins/chain/watcher.ts': ['server/main.ts', 'server/db/sql.ts'], 'tests/x.ts': ['server/db/sql.ts'] })
    expect(standInPastEntry(graph)).toEqual(['stand-ins/chain/watcher.ts → server/db/sql.ts'])
  })

  it('(e) a domain file importing the HTTP side, a route or a socket', () => {
    const graph = g({
      'server/domain/mints.ts': ['server/http/wire-format.ts', 'server/domain/rows.ts', 'server/db/sql.ts'],
      'server/domain/user-events.ts': ['server/sockets/hub.ts', 'server/routes/mint-routes.ts'],
      'server/routes/mint-routes.ts': ['server/domain/mints.ts', 'server/http/wire-format.ts'],
      'server/http/wire-format.ts': ['server/domain/rows.ts'],
    })
    expect(domainReachesWire(graph)).toEqual([
      'server/domain/mints.ts → server/http/wire-format.ts',
      'server/domain/user-events.ts → server/sockets/hub.ts',
      'server/domain/user-events.ts → server/routes/mint-routes.ts',
    ])
  })

  it('(f) the CLI importing ui/, or ui/ importing the CLI', () => {
    const graph = g({
      'cli/commands/bonds.ts': ['ui/state/bonds-state.ts', 'core/index.ts', 'cli/output.ts'],
      'ui/screens/home.tsx': ['cli/output.ts', 'ui/components/card.tsx'],
      'adapters/node/node-platform.ts': ['core/index.ts'],
    })
    expect(applicationsMeet(graph)).toEqual([
      'cli/commands/bonds.ts → ui/state/bonds-state.ts',
      'ui/screens/home.tsx → cli/output.ts',
    ])
    expect(applicationsMeet(g({ 'cli/run.ts': ['core/index.ts', 'adapters/node/node-platform.ts'] }))).toEqual([])
  })
})
