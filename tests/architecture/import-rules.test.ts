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

/**
 * (g) The backend's layers, top to bottom: a file imports files of its own layer or of a layer below,
 * never above. The app composes everything; routes, sockets and the other drivers call the domain;
 * http/ is the wire; the domain (with auth/) holds the rules; db/ the rows; config/ the settings.
 */
const SERVER_LAYERS: ReadonlyArray<{ readonly name: string; readonly parts: readonly string[] }> = [
  {
    name: 'app',
    parts: ['server/main.ts', 'server/start-server.ts', 'server/app.ts', 'server/periodic-pass.ts', 'server/admin.ts', 'server/admin-ops.ts', 'server/production-checks.ts'],
  },
  { name: 'drivers', parts: ['server/routes/', 'server/sockets/', 'server/cluster/', 'server/chain/', 'server/telegram/', 'server/observability/'] },
  { name: 'http', parts: ['server/http/'] },
  { name: 'domain', parts: ['server/domain/', 'server/auth/'] },
  { name: 'db', parts: ['server/db/'] },
  { name: 'config', parts: ['server/config/'] },
]

const layerOf = (file: string) => SERVER_LAYERS.findIndex((l) => l.parts.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)))

/** Imports that run up a layer, and server files that belong to no layer. */
const backendReachesUp = (graph: ImportGraph) => [
  ...[...graph.keys()].filter((f) => f.startsWith('server/') && /\.tsx?$/.test(f) && layerOf(f) < 0).map((f) => `${f} has no layer`),
  ...importsFromTo(graph, 'server/', (t) => t.startsWith('server/')).filter((line) => {
    const [from, to] = line.split(' → ') as [string, string]
    return layerOf(from) >= 0 && layerOf(to) >= 0 && layerOf(to) < layerOf(from)
  }),
]

/** (h) The backend imports neither the app's screens (ui/) nor the client's adapters. */
const backendReachesClient = (graph: ImportGraph) =>
  importsFromTo(graph, 'server/', (t) => t.startsWith('ui/') || t.startsWith('adapters/'))

/** (i) The CLI and the bot are clients of the backend: they import neither it, the stand-ins, the app nor the browser's composition root. */
const cliReachesPast = (graph: ImportGraph) =>
  ['cli/', 'bot/'].flatMap((client) =>
    importsFromTo(graph, client, (t) => t.startsWith('server/') || t.startsWith('stand-ins/') || t.startsWith('ui/') || t === 'composition-root.ts'),
  )

/** The browser entry: the one file that imports the composition root. */
const BROWSER_ENTRY = 'ui/main.ts'
/** What the entry alone may import of adapters/: the early boot, which starts the first requests before the root's chunk is in. */
const EARLY_BOOT = 'adapters/browser/early-boot.ts'

/** (j) ui/ imports no adapter (the root owns them), and only the browser entry imports the root. */
const uiReachesAdapters = (graph: ImportGraph) => [
  ...importsFromTo(graph, 'ui/', (t) => t.startsWith('adapters/')).filter((line) => line !== `${BROWSER_ENTRY} → ${EARLY_BOOT}`),
  ...[...graph]
    .filter(([file, targets]) => file !== BROWSER_ENTRY && targets.includes('composition-root.ts'))
    .map(([file]) => `${file} → composition-root.ts`),
]

/** (k) The core's domain imports no port: the ports speak the domain's language, not the other way round. */
const domainReachesPorts = (graph: ImportGraph) => importsFromTo(graph, 'core/domain/', (t) => t.startsWith('core/ports/'))

/**
 * (l) Inside the backend's domain layer, auth/ (init data, tokens, tonProof) uses the domain (its
 * context, errors, events), so the domain never imports auth/: the two folders never import each other.
 */
const domainReachesAuth = (graph: ImportGraph) => importsFromTo(graph, 'server/domain/', (t) => t.startsWith('server/auth/'))

/**
 * (m) ui/'s rooms, one way, top to bottom: the entry's files (ui/*.ts, ui/*.tsx) → app/ (routes, the
 * shell, the composition of the view models) → features/ → the shared rooms (state/, components/,
 * i18n/, lib/, hooks/, styles/). A file never imports a room above its own, and no two shared rooms
 * import each other.
 */
const UI_RANK: Readonly<Record<string, number>> = { '': 0, app: 1, features: 2 }
const SHARED_UI_RANK = 3
const uiRoomOf = (file: string): string => {
  const parts = file.split('/')
  return parts.length > 2 ? parts[1]! : ''
}
const uiRankOf = (room: string): number => UI_RANK[room] ?? SHARED_UI_RANK
const uiImportsUpward = (graph: ImportGraph): string[] => {
  const edges = importsFromTo(graph, 'ui/', (t) => t.startsWith('ui/'))
  const rooms = (line: string) => line.split(' → ').map(uiRoomOf) as [string, string]
  const between = new Set(edges.map(rooms).filter(([a, b]) => a !== b).map(([a, b]) => `${a}>${b}`))
  return edges.filter((line) => {
    const [from, to] = rooms(line)
    if (from === to) return false
    if (uiRankOf(to) < uiRankOf(from)) return true
    return uiRankOf(from) === SHARED_UI_RANK && uiRankOf(to) === SHARED_UI_RANK && between.has(`${to}>${from}`)
  })
}

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
    expect(graph.has('ui/main.ts')).toBe(true)
    expect(applicationsMeet(graph)).toEqual([])
  })

  it('(g) the backend imports only down its layers: app → drivers → http → domain → db → config', () => {
    expect(graph.has('server/app.ts')).toBe(true)
    expect(backendReachesUp(graph)).toEqual([])
  })

  it('(h) the backend imports neither ui/ nor adapters/', () => {
    expect(backendReachesClient(graph)).toEqual([])
  })

  it('(i) cli/ and bot/ import neither server/, stand-ins/, ui/ nor the composition root', () => {
    expect(graph.has('bot/main.ts')).toBe(true)
    expect(cliReachesPast(graph)).toEqual([])
  })

  it('(j) ui/ imports no adapter, and only the browser entry imports the composition root', () => {
    expect(graph.get(BROWSER_ENTRY)).toContain('composition-root.ts')
    expect(uiReachesAdapters(graph)).toEqual([])
  })

  it('(k) core/domain imports no port', () => {
    expect(domainReachesPorts(graph)).toEqual([])
  })

  it('(l) server/domain imports nothing of server/auth (auth uses the domain, not the reverse)', () => {
    expect(importsFromTo(graph, 'server/auth/', (t) => t.startsWith('server/domain/')).length).toBeGreaterThan(0)
    expect(domainReachesAuth(graph)).toEqual([])
  })
  it('(m) ui/ imports one way: entry → app → features → state, components, i18n, lib, hooks', () => {
    expect(importsFromTo(graph, 'ui/app/', (t) => t.startsWith('ui/features/')).length).toBeGreaterThan(0)
    expect(importsFromTo(graph, 'ui/features/', (t) => t.startsWith('ui/state/')).length).toBeGreaterThan(0)
    expect(uiImportsUpward(graph)).toEqual([])
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
      'adapters/node/q.ts': ['ui/main.ts', 'cli/main.ts'],
      'ui/main.ts': ['adapters/browser/p.ts'],
    })
    expect(adapterReachesUp(graph, ['adapters/'])).toEqual([
      'adapters/browser/p.ts → composition-root.ts',
      'adapters/node/q.ts → ui/main.ts',
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

  it('(g) a backend import running up a layer, and a server file with no layer', () => {
    const graph = g({
      'server/domain/mints.ts': ['server/http/wire-format.ts', 'server/db/sql.ts', 'server/auth/tokens.ts'],
      'server/db/sql.ts': ['server/domain/money.ts', 'server/config/config.ts'],
      'server/config/config.ts': ['server/db/engine.ts'],
      'server/routes/mint-routes.ts': ['server/domain/mints.ts', 'server/http/params.ts', 'server/sockets/hub.ts'],
      'server/http/params.ts': ['server/app.ts'],
      'server/app.ts': ['server/routes/mint-routes.ts'],
      'server/stray.ts': ['server/db/sql.ts'],
    })
    expect(backendReachesUp(graph)).toEqual([
      'server/stray.ts has no layer',
      'server/domain/mints.ts → server/http/wire-format.ts',
      'server/db/sql.ts → server/domain/money.ts',
      'server/config/config.ts → server/db/engine.ts',
      'server/http/params.ts → server/app.ts',
    ])
  })

  it('(h) the backend importing ui/ or an adapter', () => {
    const graph = g({
      'server/domain/mints.ts': ['core/domain/bond-payment.ts', 'ui/state/bonds-state.ts'],
      'server/routes/mint-routes.ts': ['adapters/http/api-client.ts'],
      'cli/run.ts': ['adapters/node/node-platform.ts'],
    })
    expect(backendReachesClient(graph)).toEqual([
      'server/domain/mints.ts → ui/state/bonds-state.ts',
      'server/routes/mint-routes.ts → adapters/http/api-client.ts',
    ])
  })

  it('(i) the CLI or the bot importing the backend, a stand-in, the app or the composition root', () => {
    const graph = g({
      'cli/run.ts': ['server/main.ts', 'core/index.ts', 'adapters/node/node-platform.ts'],
      'cli/dev-init-data.ts': ['stand-ins/telegram-host/launch.ts', 'composition-root.ts'],
      'ui/main.ts': ['composition-root.ts'],
      'bot/features/start.ts': ['server/telegram/share-message.ts', 'ui/i18n/en.ts', 'core/index.ts'],
    })
    expect(cliReachesPast(graph)).toEqual([
      'cli/run.ts → server/main.ts',
      'cli/dev-init-data.ts → stand-ins/telegram-host/launch.ts',
      'cli/dev-init-data.ts → composition-root.ts',
      'bot/features/start.ts → server/telegram/share-message.ts',
      'bot/features/start.ts → ui/i18n/en.ts',
    ])
  })

  it('(j) a screen importing an adapter or the root, and the entry importing an adapter other than the early boot', () => {
    const graph = g({
      'ui/main.ts': ['composition-root.ts', 'adapters/browser/early-boot.ts', 'adapters/browser/browser-ports.ts'],
      'ui/features/bonds/bond-form.tsx': ['adapters/ton/ton-connect-wallet.ts', 'core/index.ts'],
      'ui/render-app.tsx': ['composition-root.ts'],
      'cli/run.ts': ['adapters/node/node-platform.ts'],
    })
    expect(uiReachesAdapters(graph)).toEqual([
      'ui/main.ts → adapters/browser/browser-ports.ts',
      'ui/features/bonds/bond-form.tsx → adapters/ton/ton-connect-wallet.ts',
      'ui/render-app.tsx → composition-root.ts',
    ])
  })

  it('(k) a domain file importing a port', () => {
    const graph = g({
      'core/domain/entities/mint.ts': ['core/ports/notifier.port.ts', 'core/domain/ids.ts'],
      'core/ports/notifier.port.ts': ['core/domain/notice.ts'],
    })
    expect(domainReachesPorts(graph)).toEqual(['core/domain/entities/mint.ts → core/ports/notifier.port.ts'])
  })

  it('(l) a domain file importing auth/, while auth/ importing the domain is allowed', () => {
    const graph = g({
      'server/domain/wallets.ts': ['server/auth/ton-proof.ts', 'server/domain/context.ts'],
      'server/auth/tokens.ts': ['server/domain/context.ts', 'server/domain/errors.ts'],
      'server/routes/wallet-routes.ts': ['server/auth/wallet-proof.ts'],
    })
    expect(domainReachesAuth(graph)).toEqual(['server/domain/wallets.ts → server/auth/ton-proof.ts'])
  })

  it('(m) a component reaching up to app/, a feature to app/, state to a feature, two shared rooms both ways', () => {
    const graph = g({
      'ui/main.ts': ['ui/app/app-root.tsx'],
      'ui/app/layout.tsx': ['ui/features/bonds/bond-screen.tsx', 'ui/components/modal.tsx'],
      'ui/features/bonds/bond-screen.tsx': ['ui/features/app-states.ts', 'ui/state/run-effect.ts', 'ui/app/navigation.ts'],
      'ui/components/top-bar.tsx': ['ui/app/contexts.ts', 'ui/hooks/use-while-visible.ts'],
      'ui/state/app-state.ts': ['ui/features/bonds/bonds-state.ts'],
      'ui/hooks/use-copy.ts': ['ui/lib/clipboard.ts'],
      'ui/lib/clipboard.ts': ['ui/hooks/use-copy.ts'],
      'ui/i18n/use-t.ts': ['ui/lib/format.ts'],
    })
    expect(uiImportsUpward(graph)).toEqual([
      'ui/features/bonds/bond-screen.tsx → ui/app/navigation.ts',
      'ui/components/top-bar.tsx → ui/app/contexts.ts',
      'ui/state/app-state.ts → ui/features/bonds/bonds-state.ts',
      'ui/hooks/use-copy.ts → ui/lib/clipboard.ts',
      'ui/lib/clipboard.ts → ui/hooks/use-copy.ts',
    ])
  })
})
