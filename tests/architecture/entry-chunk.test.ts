import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build, type Plugin, type Rolldown } from 'vite'
import { COMPILE_HINT, EAGER_COMPILE_CHUNKS } from '../../vite.config.ts'

/**
 * The production build's chunks, as the browser boots them (scripts/bench-bundle.ts measures their
 * size; this holds their shape):
 * - the entry (ui/main.ts) imports no other chunk: it starts the maintenance check and /user/me as
 *   soon as it has downloaded, so a chunk it imported statically would hold both back;
 * - the boot's chunks (the entry, the composition root and render-app, and what they import
 *   statically) hold none of the adapters and view models the first paint does not use;
 * - what the boot steps share comes in three chunks, not one per set of importers (vite.config.ts,
 *   `bootModules`): effect's modules, the rest of what the composition root imports (no React),
 *   both evaluated before render-app, and what render-app and the dashboard add;
 * - a lazy chunk's preload list (Vite's preload helper resolves each file in it on every dynamic
 *   import) names no file the page already loads, and leaves out no other;
 * - the chunks every open runs begin with V8's compile hint, and no other does.
 */

type Chunk = Rolldown.OutputChunk

const BOOT_STEP = /\/(composition-root\.ts|ui\/render-app\.tsx)$/
/**
 * Modules the first screen does not need: each is in a chunk loaded after it has painted, on first
 * use, or (the SecureStorage session store) only on the clients that use it.
 */
const AFTER_FIRST_PAINT = [
  'adapters/ton/ton-connect-wallet.ts',
  'adapters/ton/browser-ton-connect-wallet.ts',
  'adapters/ton/ton-comment-payload.ts',
  'adapters/ton/v4-api-chain-reader.ts',
  'adapters/browser/secure-session-store.ts',
  // The other screens' view models (ui/features/screen-states.ts), made after the first paint.
  'ui/features/farming/farming-state.ts',
  'ui/features/tasks/tasks-state.ts',
  'ui/features/referrals/referrals-state.ts',
  'ui/features/history/history-state.ts',
  'ui/features/sell/sell-state.ts',
  // The use cases of the steps and screens after the dashboard, loaded on their first call
  // (core/use-cases/loaded-on-first-call.ts).
  'core/use-cases/buy-bond.ts',
  'core/use-cases/pay-bond.ts',
  'core/use-cases/sell-tokens.ts',
  'core/use-cases/create-farming-link.ts',
  'core/use-cases/advance-task.ts',
  'core/use-cases/load-referrals.ts',
  'core/use-cases/invite-friends.ts',
]

const chunks = new Map<string, Chunk>()
let outDir = ''

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'axiom-entry-chunk-'))
  const collect: Plugin = {
    name: 'entry-chunk-collect',
    generateBundle(_options, bundle) {
      for (const c of Object.values(bundle)) if (c.type === 'chunk') chunks.set(c.fileName, c)
    },
  }
  await build({ configFile: 'vite.config.ts', logLevel: 'warn', plugins: [collect], build: { outDir, emptyOutDir: true } })
}, 120_000)

afterAll(() => rmSync(outDir, { recursive: true, force: true }))

const modulesOf = (c: Chunk) => Object.keys(c.modules).map((id) => id.replace(`${process.cwd()}/`, ''))

describe('the production build', () => {
  it('has one entry, and it imports no other chunk', () => {
    const entries = [...chunks.values()].filter((c) => c.isEntry)
    expect(entries.map((c) => c.facadeModuleId?.replace(`${process.cwd()}/`, ''))).toEqual(['ui/index.html'])
    const entry = entries[0]!
    expect(modulesOf(entry)).toContain('ui/main.ts')
    // What the entry would wait for, by chunk and the modules in it.
    const waits = entry.imports.map((name) => `${name}: ${modulesOf(chunks.get(name)!).join(', ')}`)
    expect(waits).toEqual([])
  })

  it('keeps the wallet adapter, the chain reader, the SecureStorage store and the other screens’ view models out of the boot steps and what they import statically', () => {
    const entries = [...chunks.values()].filter((c) => c.isEntry)
    const boot = entries.flatMap((e) => e.dynamicImports).filter((n) => BOOT_STEP.test(chunks.get(n)?.facadeModuleId ?? ''))
    expect(boot).toHaveLength(2)
    const seen = new Set<string>()
    const visit = (name: string) => {
      if (seen.has(name)) return
      seen.add(name)
      chunks.get(name)?.imports.forEach(visit)
    }
    ;[...entries.map((e) => e.fileName), ...boot].forEach(visit)
    const inBoot = [...seen].flatMap((n) => modulesOf(chunks.get(n)!))
    expect(inBoot).toContain('composition-root.ts')
    for (const m of AFTER_FIRST_PAINT) expect(inBoot).not.toContain(m)
  })

  it('boots from three shared chunks: effect’s, the rest of the composition root’s imports (no React), and what render-app and the dashboard add', () => {
    const entries = [...chunks.values()].filter((c) => c.isEntry)
    const byFacade = (re: RegExp) => [...chunks.values()].find((c) => re.test(c.facadeModuleId ?? ''))!
    const root = byFacade(/\/composition-root\.ts$/)
    const render = byFacade(/\/ui\/render-app\.tsx$/)
    const dashboard = byFacade(/\/dashboard-screen\.tsx$/)
    const others = (c: Chunk) => c.imports.filter((n) => !entries.some((e) => e.fileName === n) && !/rolldown-runtime/.test(n))
    // The composition root's chunk is its own module; what it imports is one chunk, which imports
    // one more: effect's modules, and nothing else.
    expect(modulesOf(root)).toEqual(['composition-root.ts'])
    expect(others(root)).toHaveLength(1)
    const firstPaint = chunks.get(others(root)[0]!)!
    expect(others(firstPaint)).toHaveLength(1)
    const effect = chunks.get(others(firstPaint)[0]!)!
    expect(others(effect)).toEqual([])
    expect(modulesOf(effect).filter((m) => !m.startsWith('node_modules/effect/'))).toEqual([])
    expect(modulesOf(firstPaint).filter((m) => m.startsWith('node_modules/effect/'))).toEqual([])
    expect(modulesOf(firstPaint).filter((m) => /node_modules\/(react|react-dom|scheduler)\//.test(m))).toEqual([])
    // render-app and the dashboard screen import those and one more, the same.
    const shared = new Set([effect.fileName, firstPaint.fileName])
    for (const step of [render, dashboard]) expect(others(step).filter((n) => !shared.has(n))).toHaveLength(1)
    const renderShared = others(render).find((n) => !shared.has(n))!
    expect(others(dashboard)).toContain(renderShared)
    expect(others(chunks.get(renderShared)!).filter((n) => !shared.has(n))).toEqual([])
  })

  it('lists, for each dynamic import, every file it needs that the page does not already load, and none that it does', () => {
    const page = readFileSync(join(outDir, 'index.html'), 'utf8')
    const inPage = new Set([...page.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!))
    expect(inPage.size).toBeGreaterThan(3)
    // Every preload list the build wrote (`__vite__mapDeps`), in every chunk's file: Vite writes
    // them after the plugins' generateBundle that collected the chunks.
    const lists = [...chunks.values()].flatMap((c) => [...readFileSync(join(outDir, c.fileName), 'utf8').matchAll(/m\.f=\[([^\]]*)\]/g)].map((m) => [...m[1]!.matchAll(/"(assets\/[^"]+\.js)"/g)].map((x) => x[1]!)))
    const listed = new Set(lists.flat())
    expect(lists.length).toBeGreaterThan(3)
    expect([...listed].filter((f) => inPage.has(f))).toEqual([])
    // Nor the stylesheets the page links itself (deploy/preload-lists.ts).
    const pageCss = [...page.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1]!)
    expect(pageCss.length).toBeGreaterThan(0)
    const listedCss = [...chunks.values()].flatMap((c) => [...readFileSync(join(outDir, c.fileName), 'utf8').matchAll(/m\.f=\[([^\]]*)\]/g)].flatMap((m) => [...m[1]!.matchAll(/"(assets\/[^"]+\.css)"/g)].map((x) => x[1]!)))
    expect(listedCss.length).toBeGreaterThan(0)
    expect(listedCss.filter((f) => pageCss.includes(f))).toEqual([])
    // What a lazily imported chunk imports statically, all the way down, is in the page or in a list
    // (the chunk itself is fetched by the import).
    const closure = (name: string, into = new Set<string>()): Set<string> => {
      if (into.has(name)) return into
      into.add(name)
      chunks.get(name)?.imports.forEach((n) => closure(n, into))
      return into
    }
    const lazy = new Set([...chunks.values()].flatMap((c) => c.dynamicImports))
    const unlisted = [...lazy].flatMap((name) => [...closure(name)].filter((f) => f !== name)).filter((f) => !inPage.has(f) && !listed.has(f))
    expect([...new Set(unlisted)]).toEqual([])
  })

  it('leaves the other screens’ imports, with their preload lists, out of every file the page loads before the first paint', () => {
    const page = readFileSync(join(outDir, 'index.html'), 'utf8')
    const inPage = [...page.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!)
    expect(inPage.some((f) => /render-shared-/.test(f))).toBe(true)
    const screens = [...chunks.values()]
      .filter((c) => /\/ui\/features\/[a-z-]+\/[a-z-]+-screen\.tsx$/.test(c.facadeModuleId ?? '') && !/dashboard-screen/.test(c.facadeModuleId!))
      .map((c) => c.fileName.replace(/^assets\//, ''))
    expect(screens).toHaveLength(8)
    for (const file of inPage) {
      const code = readFileSync(join(outDir, file), 'utf8')
      expect(screens.filter((s) => code.includes(s)).map((s) => `${s} in ${file}`)).toEqual([])
    }
  })

  it('begins each chunk every open runs, and only those, with the compile hint on its first line', () => {
    const files = [...chunks.values()].map((c) => ({ name: c.name, code: readFileSync(join(outDir, c.fileName), 'utf8'), modules: modulesOf(c) }))
    // A chunk renamed (its module moved or renamed) leaves its name in the list without a chunk.
    expect(files.filter((f) => f.code.startsWith(COMPILE_HINT)).map((f) => f.name).sort()).toEqual([...EAGER_COMPILE_CHUNKS].sort())
    expect(files.filter((f) => f.code.includes('allFunctionsCalledOnLoad') && !f.code.startsWith(COMPILE_HINT))).toEqual([])
    // `dist` is the Telegram SDK's chunk (named for its folder).
    expect(files.find((f) => f.name === 'dist')?.modules.some((m) => m.includes('node_modules/@twa-dev/sdk/'))).toBe(true)
  })

  it('holds the app’s own Reflect metadata API for inversify, not the reflect-metadata package', () => {
    const all = [...chunks.values()].flatMap(modulesOf)
    expect(all).toContain('ui/lib/reflect-metadata-lite.ts')
    expect(all.filter((m) => m.includes('node_modules/reflect-metadata/'))).toEqual([])
  })
})
