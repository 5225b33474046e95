/**
 * `npm run bench:bundle`: the gzip size (level 9) of the JS loaded before the dashboard paints
 * (budget ≤ 170 KiB) and of all the app's JS (budget ≤ 420 KiB), on the production build.
 *
 * "Before the dashboard paints" is taken as the union of two sets, so neither can hide a chunk:
 *  - static: the entry chunk, the boot steps it imports dynamically, and everything those import
 *    statically, plus the dashboard route's lazy chunk and its static imports (the route is the
 *    page the app opens on);
 *  - observed: the JS files Chromium had requested by the moment the dashboard screen appeared in
 *    the DOM, launching the app for a seeded user with a signed Telegram launch hash against the
 *    reference backend (so startup-time dynamic imports count too).
 * Each language's catalogue (ui/i18n/en.ts, ru.ts, uk.ts, …), which the entry loads only for a user
 * of that language, is printed apart with the initial figure for such a user; the initial budget
 * holds for every language. "All JS" is what one user can load: every chunk but the languages'
 * texts (a catalogue and its screens' chunk), of which one language's (the largest) is counted; the
 * whole build's figure is printed beside it.
 * Pass --static to skip the browser run, --modules for where the bytes go, by package and module
 * (source-map attribution, scripts/bundle-breakdown.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, type Plugin, type Rolldown } from 'vite'
import { launchChromium } from '../tests/support/chromium.ts'
import { chunkShares, packageOf, top } from './bundle-breakdown.ts'
import { launchUrl, seedActiveBonds, startBenchStack } from './bench-ticker.ts'

const BUDGET_INITIAL_KIB = 170
const BUDGET_TOTAL_KIB = 420
const DASHBOARD_MODULE = /ui\/features\/dashboard\/dashboard-screen\.tsx$/
const BOOT_STEP = /\/(composition-root\.ts|ui\/render-app\.tsx)$/
const CATALOGUE_MODULE = /\/ui\/i18n\/(en|ru|uk|es|pt-br|id|tr|fa)\.ts$/
/** Each language's other screens' texts (en-screens.ts included): loaded with the first screen beyond the dashboard. */
const SCREEN_TEXTS_MODULE = /\/ui\/i18n\/(en|ru|uk|es|pt-br|id|tr|fa)-screens\.ts$/

type Chunk = Rolldown.OutputChunk
const kib = (bytes: number) => bytes / 1024
const fmt = (bytes: number) => `${kib(bytes).toFixed(1)} KiB`

const collect = (): { plugin: Plugin; chunks: Map<string, Chunk> } => {
  const chunks = new Map<string, Chunk>()
  return {
    chunks,
    plugin: {
      name: 'bench-bundle-collect',
      generateBundle(_options, bundle) {
        for (const c of Object.values(bundle)) if (c.type === 'chunk') chunks.set(c.fileName, c)
      },
    },
  }
}

/** A chunk and every chunk it imports statically. */
const closure = (chunks: Map<string, Chunk>, roots: string[]): Set<string> => {
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    for (const dep of chunks.get(name)?.imports ?? []) visit(dep)
  }
  roots.forEach(visit)
  return seen
}

/** What a chunk holds, by package (or app folder), in rendered bytes before minification. */
const contents = (c: Chunk): string => {
  const by = new Map<string, number>()
  for (const [id, m] of Object.entries(c.modules)) {
    const nm = id.split('node_modules/').pop()!
    const key = id.includes('node_modules/')
      ? nm.split('/').slice(0, nm.startsWith('@') ? 2 : 1).join('/')
      : id.replace(`${process.cwd()}/`, '').split('/').slice(0, 2).join('/')
    by.set(key, (by.get(key) ?? 0) + m.renderedLength)
  }
  return [...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k]) => k)
    .join(', ')
}

/** The JS files requested before the dashboard screen appeared, in a real launch. */
const observedBeforeDashboard = async (outDir: string): Promise<Set<string>> => {
  const stack = await startBenchStack({ outDir })
  const browser = await launchChromium()
  try {
    const user = 7_000_002
    await seedActiveBonds(stack, user, 3)
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
    // The moment the dashboard is in the DOM, recorded in the page (a mutation observer fires
    // right after React's commit, before any effect of the dashboard starts more downloads).
    await page.addInitScript({
      content: `new MutationObserver((_, obs) => {
        if (document.querySelector('[data-testid="screen-dashboard"]')) { window.__dashboardAt = performance.now(); obs.disconnect() }
      }).observe(document, { childList: true, subtree: true })`,
    })
    await page.goto(launchUrl(stack, user))
    await page.waitForFunction(() => typeof (window as { __dashboardAt?: number }).__dashboardAt === 'number', null, { timeout: 30_000 })
    const files = await page.evaluate(() => {
      const at = (window as unknown as { __dashboardAt: number }).__dashboardAt
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= at && /\.js(\?|$)/.test(e.name))
        .map((e) => new URL(e.name).pathname.replace(/^\//, ''))
    })
    return new Set(files)
  } finally {
    await browser.close().catch(() => undefined)
    await stack.close()
  }
}

const main = async () => {
  const staticOnly = process.argv.includes('--static')
  const modules = process.argv.includes('--modules')
  const outDir = mkdtempSync(join(tmpdir(), 'axiom-bench-bundle-'))
  try {
    const { plugin, chunks } = collect()
    // --modules: hidden source maps (no comment in the code, so the chunks measure the same).
    await build({ configFile: 'vite.config.ts', logLevel: 'warn', plugins: [plugin], build: { outDir, emptyOutDir: true, ...(modules ? { sourcemap: 'hidden' as const } : {}) } })
    // The files as written and served: Vite adds each chunk's preload list, and the build its
    // compile hint, after the plugins' generateBundle that collected the chunks.
    const gz = new Map([...chunks].map(([name]) => [name, gzipSync(readFileSync(join(outDir, name)), { level: 9 }).length]))
    const sum = (names: Iterable<string>) => [...names].reduce((n, name) => n + (gz.get(name) ?? 0), 0)

    const entries = [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName)
    const dashboard = [...chunks.values()].filter((c) => c.isDynamicEntry && c.facadeModuleId && DASHBOARD_MODULE.test(c.facadeModuleId))
    if (dashboard.length !== 1) throw new Error('could not find the dashboard route chunk')
    // The entry (ui/main.ts) boots through its own dynamic imports: the composition root, then render-app.
    // Its other dynamic imports, the languages' catalogues, load one for each user (printed apart).
    const isBootStep = (name: string) => BOOT_STEP.test(chunks.get(name)?.facadeModuleId ?? '')
    const boot = entries.flatMap((e) => chunks.get(e)?.dynamicImports ?? []).filter(isBootStep)
    const catalogues = [...chunks.values()].filter((c) => c.facadeModuleId && CATALOGUE_MODULE.test(c.facadeModuleId)).map((c) => c.fileName)
    const staticSet = closure(chunks, [...entries, ...boot, dashboard[0]!.fileName])
    const observed = staticOnly ? new Set<string>() : await observedBeforeDashboard(outDir)
    const unknown = [...observed].filter((f) => !chunks.has(f))
    if (unknown.length) throw new Error(`the browser loaded JS the build did not produce: ${unknown.join(', ')}`)
    // Every language's catalogue, English's too, loads only for its speakers: counted per speaker below
    // (the browser check's user speaks English).
    const initial = new Set([...staticSet, ...observed].filter((n) => !catalogues.includes(n)))

    const initialBytes = sum(initial)
    // One user reads one language: of the languages' chunks (a catalogue and its screens' texts) they
    // load one language's.
    const languageOf = (name: string) => {
      const id = chunks.get(name)?.facadeModuleId ?? ''
      return id.match(CATALOGUE_MODULE)?.[1] ?? id.match(SCREEN_TEXTS_MODULE)?.[1] ?? null
    }
    const perLanguage = new Map<string, string[]>()
    for (const name of chunks.keys()) {
      const language = languageOf(name)
      if (language) perLanguage.set(language, [...(perLanguage.get(language) ?? []), name])
    }
    const languageBytes = [...perLanguage.values()].map(sum)
    const buildBytes = sum(chunks.keys())
    const totalBytes = buildBytes - languageBytes.reduce((a, b) => a + b, 0) + Math.max(0, ...languageBytes)
    console.log('bench:bundle — production build, gzip -9')
    console.log('  JS loaded before the dashboard paints:')
    for (const name of [...initial].sort((a, b) => gz.get(b)! - gz.get(a)!)) {
      const how = staticSet.has(name) ? (observed.has(name) || staticOnly ? '' : ' (static only)') : ' (observed only)'
      console.log(`    ${fmt(gz.get(name)!).padStart(10)}  ${name}${how}  [${contents(chunks.get(name)!)}]`)
    }
    // Each speaker's initial JS: the entry's set and their catalogue (with what it imports).
    const speakers = catalogues.map((name) => {
      const more = [...closure(chunks, [name])].filter((n) => !initial.has(n))
      const language = chunks.get(name)!.facadeModuleId!.match(CATALOGUE_MODULE)![1]!
      console.log(`  a ${language} speaker also loads before the dashboard: ${more.map((n) => `${n} ${fmt(gz.get(n)!)}`).join(', ')} (initial JS for them: ${fmt(initialBytes + sum(more))})`)
      return { language, bytes: initialBytes + sum(more) }
    })
    const heaviest = speakers.reduce((a, b) => (b.bytes > a.bytes ? b : a))
    // The entry starts the maintenance check and /user/me: a static import would hold it until that chunk arrived.
    const entryWaits = entries.flatMap((e) => chunks.get(e)?.imports ?? [])
    console.log(`  the entry waits for: ${entryWaits.length ? entryWaits.map((n) => `${n} ${fmt(gz.get(n)!)}`).join(', ') : 'no other chunk (it runs as soon as it has downloaded)'}`)
    const later = [...chunks.keys()].filter((n) => !initial.has(n)).sort((a, b) => gz.get(b)! - gz.get(a)!)
    console.log(`  loaded later (${later.length} chunks): ${later.slice(0, 8).map((n) => `${n} ${fmt(gz.get(n)!)}`).join(', ')}${later.length > 8 ? ', …' : ''}`)
    if (!staticOnly) console.log(`  browser check: ${observed.size} JS files requested before the dashboard appeared`)
    if (modules) {
      const shares = [...chunks.keys()].flatMap((name) => chunkShares(outDir, name, gz.get(name)!))
      const before = shares.filter((s) => initial.has(s.chunk))
      console.log('  before the dashboard paints, by package or app folder:')
      top(before, (s) => packageOf(s.module), 25).forEach((l) => console.log(`  ${l}`))
      console.log('  before the dashboard paints, the largest modules:')
      top(before, (s) => s.module, Number(process.env.BUNDLE_TOP ?? 30)).forEach((l) => console.log(`  ${l}`))
      console.log('  all JS, by package or app folder:')
      top(shares, (s) => packageOf(s.module), Number(process.env.BUNDLE_PKGS ?? 25)).forEach((l) => console.log(`  ${l}`))
    }
    const okInitial = kib(heaviest.bytes) <= BUDGET_INITIAL_KIB
    const okTotal = kib(totalBytes) <= BUDGET_TOTAL_KIB
    const english = speakers.find((sp) => sp.language === 'en')!
    console.log(`  initial JS: ${fmt(english.bytes)} for an English speaker, ${fmt(heaviest.bytes)} for the heaviest (${heaviest.language}) (budget ≤ ${BUDGET_INITIAL_KIB} KiB for every language) ${okInitial ? 'PASS' : 'FAIL'}`)
    console.log(`  total JS:   ${fmt(totalBytes)} one user can load (budget ≤ ${BUDGET_TOTAL_KIB} KiB) ${okTotal ? 'PASS' : 'FAIL'}; the whole build ${fmt(buildBytes)} with ${perLanguage.size} languages' texts`)
    process.exitCode = okInitial && okTotal ? 0 : 1
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}

await main()
