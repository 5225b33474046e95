import type { IncomingMessage, ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin, type ProxyOptions } from 'vite'
import { withoutPreloaded } from './deploy/preload-lists.ts'
import { securityHeaders } from './deploy/security-headers.ts'

const backend = process.env.AXIOM_BACKEND ?? 'http://127.0.0.1:8787'
/** The local TON stack (chain v4 API, bridge, dev wallet), reached through this origin at /ton. */
const localTon = process.env.AXIOM_TON ?? 'http://127.0.0.1:8788'

const proxy: Record<string, ProxyOptions> = {
  '/api': { target: backend, ws: true, changeOrigin: true },
  '/ton': { target: localTon, changeOrigin: true, rewrite: (path) => path.replace(/^\/ton/, '') },
}

/**
 * The TON Connect manifest at /tonconnect-manifest.json (spec §2), describing the app at the origin
 * it is served from; a production build writes it for AXIOM_APP_URL.
 */
const tonConnectManifest = (): Plugin => {
  const manifest = (origin: string) =>
    JSON.stringify({ url: origin, name: 'AXIOM', iconUrl: `${origin}/axiom-icon.png` }, null, 2)
  const serve = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (req.url?.split('?')[0] !== '/tonconnect-manifest.json') return next()
    const proto = (req.headers['x-forwarded-proto'] as string | undefined) ?? 'http'
    res.setHeader('content-type', 'application/json')
    res.setHeader('access-control-allow-origin', '*')
    res.end(manifest(`${proto}://${req.headers.host}`))
  }
  return {
    name: 'axiom-tonconnect-manifest',
    configureServer: (server) => void server.middlewares.use(serve),
    configurePreviewServer: (server) => void server.middlewares.use(serve),
    generateBundle() {
      const appUrl = process.env.AXIOM_APP_URL
      if (appUrl) this.emitFile({ type: 'asset', fileName: 'tonconnect-manifest.json', source: manifest(appUrl.replace(/\/$/, '')) })
    },
  }
}

/**
 * How the built app is cached, as its host must serve it: the hashed files under /assets/ never
 * change, so a returning user's browser takes them from its cache without asking
 * (`immutable`, a year); the page itself is asked for every time (`no-cache`, answered 304 when
 * unchanged), so a new build reaches users at once. `vite preview` (the benches, the e2e tests)
 * sends no Cache-Control at all, which leaves the browser to guess and revalidate each file.
 */
const cacheHeaders = (): Plugin => ({
  name: 'axiom-cache-headers',
  configurePreviewServer: (server) =>
    void server.middlewares.use((req, res, next) => {
      const path = req.url?.split('?')[0] ?? ''
      if (path.startsWith('/assets/')) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
      else if (!Object.keys(proxy).some((prefix) => path.startsWith(prefix))) res.setHeader('Cache-Control', 'no-cache')
      next()
    }),
})

/**
 * The security headers production's nginx sends (deploy/security-headers.ts, one policy for both),
 * so the browser tests run the app under the policy it ships with: vite preview sends the `local`
 * policy (the Telegram host emulator on 127.0.0.1 may frame the app), the dev server the `dev` one
 * (React Refresh's inline preamble). Plain http here: no HSTS.
 */
const securityHeadersPlugin = (): Plugin => {
  const use = (headers: Record<string, string>) => (_req: IncomingMessage, res: ServerResponse, next: () => void) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
    next()
  }
  return {
    name: 'axiom-security-headers',
    configureServer: (server) => void server.middlewares.use(use(securityHeaders({ mode: 'dev', tls: false }))),
    configurePreviewServer: (server) => void server.middlewares.use(use(securityHeaders({ mode: 'local', tls: false }))),
  }
}

/**
 * The entry (ui/main.ts) boots through two dynamic imports, evaluated one after the other, and the
 * app opens on the dashboard, a lazy screen. The built page names the chunks of all three (and their
 * imports) as `modulepreload`, and their styles as `preload`, so they download together with the
 * entry (a preload fetches without evaluating) instead of each waiting for the step before it to run.
 */
const BOOT_STEPS = /\/(composition-root\.ts|ui\/render-app\.tsx|ui\/features\/dashboard\/dashboard-screen\.tsx)$/

const preloadBootSteps = (): Plugin => {
  let base = '/'
  return {
    name: 'axiom-preload-boot-steps',
    apply: 'build',
    configResolved: (config) => void (base = config.base),
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk')
        const byName = new Map(chunks.map((c) => [c.fileName, c]))
        const steps = chunks.filter((c) => BOOT_STEPS.test(c.facadeModuleId ?? ''))
        if (steps.length !== 3) throw new Error('the boot steps (composition-root.ts, ui/render-app.tsx, the dashboard screen) are missing from the build')
        const files = new Set<string>()
        const css = new Set<string>()
        const visit = (name: string) => {
          if (files.has(name) || html.includes(name)) return
          files.add(name)
          byName.get(name)?.viteMetadata?.importedCss.forEach((f) => css.add(f))
          byName.get(name)?.imports.forEach(visit)
        }
        steps.forEach((c) => visit(c.fileName))
        const link = (attrs: Record<string, string | boolean>) => ({ tag: 'link', attrs, injectTo: 'head' as const })
        return [
          // At low priority: the loader (the page's first paint) needs only the entry and its styles.
          ...[...files].map((f) => link({ rel: 'modulepreload', crossorigin: true, fetchpriority: 'low', href: base + f })),
          ...[...css].filter((f) => !html.includes(f)).map((f) => link({ rel: 'preload', as: 'style', href: base + f })),
        ]
      },
    },
  }
}

/**
 * The boot's shared modules, in two chunks rather than a dozen. Left to itself, the bundler made a
 * chunk for each set of importers a module has, so what the boot steps share with the lazy screens
 * came as many small chunks (the boot loaded 16), each with its own imports, exports and gzip
 * overhead, and one more whenever a lazy chunk began to share a module with the boot. Once the
 * module graph is complete (`buildEnd`, before the chunks are made), this gathers:
 * - `first-paint`: what the composition root imports statically (effect, mobx, inversify, the core,
 *   the adapters and view models it builds), the composition root itself aside. The entry evaluates
 *   it in a task of its own (ui/main.ts imports ui/app/dashboard-loader.ts, which is in it), before
 *   the composition root's own module. No React: the root imports none.
 * - `first-paint-effect`: effect's modules of that closure, taken out of `first-paint` so that the
 *   two evaluate in two tasks (ui/main.ts imports one of effect's modules first), and V8 writes
 *   their code caches in two (one, for one chunk of 1.1 MB, was a repeat visit's longest task).
 * - `render-shared`: what render-app and the dashboard screen import statically beyond that (React,
 *   the router, the shell, the components), the two modules aside, so each stays its own lazy chunk.
 * Each is the static closure of its roots, so a module only lazy chunks import stays out of both,
 * and neither chunk imports a chunk that is not already loaded when it runs. The chunk groups below
 * take them; the entry's own group comes first, so the entry still imports no other chunk.
 */
/** The built files the page has before any lazy import runs: the entry's group, the runtime, the boot's three shared groups and its three steps. */
const IN_PAGE_BEFORE_LAZY_IMPORTS = /(^|\/)(index|rolldown-runtime|first-paint|first-paint-effect|render-shared|composition-root|render-app|dashboard-screen)-[\w-]{8}\.js$/

const bootGroups = { firstPaint: new Set<string>(), renderShared: new Set<string>() }
const COMPOSITION_ROOT = /[\\/]composition-root\.ts$/
const EFFECT_MODULE = /[\\/]node_modules[\\/]effect[\\/]/
const RENDER_ROOTS = /[\\/]ui[\\/](render-app\.tsx|features[\\/]dashboard[\\/]dashboard-screen\.tsx)$/

const bootModules = (): Plugin => ({
  name: 'axiom-boot-modules',
  apply: 'build',
  buildEnd() {
    const closure = (roots: RegExp, into: Set<string>, except: Set<string>) => {
      into.clear()
      const seen = new Set<string>()
      const visit = (id: string) => {
        if (seen.has(id)) return
        seen.add(id)
        if (!roots.test(id) && !except.has(id)) into.add(id)
        this.getModuleInfo(id)?.importedIds.forEach(visit)
      }
      for (const id of this.getModuleIds()) if (roots.test(id)) visit(id)
    }
    closure(COMPOSITION_ROOT, bootGroups.firstPaint, new Set())
    closure(RENDER_ROOTS, bootGroups.renderShared, bootGroups.firstPaint)
  },
})

/**
 * The chunks whose functions nearly all run on every open, before or just after the first paint:
 * the entry (the launch parameters, the theme, the early requests, the boot's steps), the boot's
 * three shared chunks (effect's runtime and schemas; inversify, mobx, the core; React, the
 * shell) and what the first paint releases (the Telegram SDK, `dist`; the platform's features and
 * layer; the dashboard below the fold, its chart preview and bond rows; the other screens' view
 * models). Each is marked for V8's explicit compile hints (Chrome 136+): V8 compiles every function
 * in it on a background thread as it downloads, rather than each on the main thread when first
 * called, and that code is in the cache a repeat visit reads. Other engines ignore the comment. At 4×
 * CPU, a first visit's main thread did 17 % less (docs/benchmarks.md, 2026-11-29). The hint must be
 * the file's first line, so it goes in after Vite's preload list, and the source map moves down a
 * line with it. AXIOM_NO_COMPILE_HINTS=1 builds without it, to measure the difference.
 */
export const EAGER_COMPILE_CHUNKS = [
  'index',
  'first-paint-effect',
  'first-paint',
  'render-shared',
  'dist',
  'telegram-features',
  'telegram-bridge',
  'platform-features-state',
  'platform-layer',
  'dashboard-below-fold',
  'candle-preview',
  'chart-time-labels',
  'record-row',
  'reward-text',
  'kept-bonds',
  'screen-states',
] as const
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'
const eagerCompileBootChunks = (): Plugin => ({
  name: 'axiom-eager-compile',
  apply: 'build',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      if (process.env.AXIOM_NO_COMPILE_HINTS === '1') return
      const eager = new Set<string>(EAGER_COMPILE_CHUNKS)
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !eager.has(chunk.name)) continue
        chunk.code = COMPILE_HINT + chunk.code
        // The source map (an asset of its own by now, when the build writes one) moves down a line.
        const map = bundle[`${chunk.fileName}.map`]
        if (map?.type === 'asset' && typeof map.source === 'string') {
          const json = JSON.parse(map.source) as { mappings: string }
          map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` })
        }
      }
    },
  },
})

/**
 * The page's own stylesheets (index.html links them) out of every lazy import's preload list:
 * `modulePreload.resolveDependencies` above is given the JavaScript only. Listed, each was looked up
 * in the page on each import, and its name cost the boot's files bytes before the first paint.
 */
const preloadListsWithoutPageCss = (): Plugin => ({
  name: 'axiom-preload-lists',
  apply: 'build',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []))
      const inPage = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))
      for (const chunk of chunks) chunk.code = withoutPreloaded(chunk.code, inPage)
    },
  },
})

export default defineConfig({
  root: 'ui',
  envDir: '..',
  plugins: [react(), tonConnectManifest(), preloadBootSteps(), bootModules(), preloadListsWithoutPageCss(), eagerCompileBootChunks(), cacheHeaders(), securityHeadersPlugin()],
  resolve: {
    alias: [
      // Only the exports @ton/core uses, not @ton/crypto's word lists (adapters/ton/ton-crypto-for-browser.ts).
      { find: /^@ton\/crypto$/, replacement: fileURLToPath(new URL('./adapters/ton/ton-crypto-for-browser.ts', import.meta.url)) },
      // Of jsSHA, the browser build needs SHA-256 only (@ton/crypto's sha256_sync, for cell hashes):
      // the package's own SHA-256 build, not its all-variants index (SHA-1, SHA-3, …; 2.6 KiB gz less).
      { find: /^jssha$/, replacement: fileURLToPath(new URL('./node_modules/jssha/dist/sha256.js', import.meta.url)) },
      // The Reflect metadata API inversify's container needs, in a tenth of the package's "lite" entry
      // (ui/lib/reflect-metadata-lite.ts; 1.7 KiB gz less before the dashboard).
      { find: /^reflect-metadata\/lite$/, replacement: fileURLToPath(new URL('./ui/lib/reflect-metadata-lite.ts', import.meta.url)) },
      // wouter's useSyncExternalStore shim, for React before 18: React's own hook.
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('./ui/lib/use-sync-external-store.ts', import.meta.url)) },
    ],
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.APP_PORT ?? 5173),
    strictPort: false,
    proxy,
  },
  preview: {
    host: '127.0.0.1',
    proxy,
  },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: {
      // No polyfill (0.4 KiB gz in the entry): every client Telegram supports loads modulepreload
      // links itself, except WebKit before 17 (iOS 16), which ignores them and fetches each chunk
      // when it is imported, a little later, rather than warm its cache with the polyfill's fetches.
      polyfill: false,
      // A lazy chunk's preload list leaves out the files the page loaded before any lazy import
      // ran (the entry, the runtime, the boot's shared chunks and its steps: the page's own
      // modulepreload links). Vite's preload helper resolves each listed file's URL on every
      // dynamic import, and the dashboard's first paint releases a dozen at once: that was one task
      // of 50 ms and more at 4x CPU, for files already in the page.
      resolveDependencies: (_file, deps) => deps.filter((dep) => !IN_PAGE_BEFORE_LAZY_IMPORTS.test(dep)),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // The entry owns every module it imports statically (ui/main.ts and its imports), so it
              // waits for no other chunk: it starts the maintenance check and /user/me as soon as it
              // has downloaded. Left to itself, the bundler moved a module the entry shares with the
              // lazy chunks (core/domain/constants.ts) into a chunk of its own, which the entry then
              // imported, as soon as a chunk the composition root loads lazily (the wallet adapter,
              // the TON payloads, the platform features) imported it too. This group gathers the
              // entry's modules with their dependencies; the page's entry, left empty, takes them
              // over, and the lazy chunks import what they share from it. bench:bundle prints what the
              // entry waits for; tests/architecture/entry-chunk.test.ts fails when it waits again.
              name: 'index',
              test: /[\\/]ui[\\/](main\.ts|index\.html)$/,
            },
            // The boot's shared modules (bootModules above), after the entry's.
            { name: 'first-paint-effect', test: (id: string) => bootGroups.firstPaint.has(id) && EFFECT_MODULE.test(id) },
            { name: 'first-paint', test: (id: string) => bootGroups.firstPaint.has(id) },
            { name: 'render-shared', test: (id: string) => bootGroups.renderShared.has(id) },
          ],
        },
      },
    },
  },
})
