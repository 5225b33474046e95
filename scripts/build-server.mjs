#!/usr/bin/env node
/**
 * `npm run build:server`: the backend (server/main.ts), the product's bot (bot/main.ts) and the
 * operator's commands (server/admin.ts) bundled to plain JavaScript for Node, so the image runs them
 * with `node` alone (no TypeScript at run time): dist-server/main.mjs, bot.mjs, admin.mjs.
 * The packages they import stay imports (`packages: 'external'`); the image installs those from
 * deploy/server-package.json. deploy/Dockerfile runs this; tests/deploy/server-bundle.test.ts runs
 * the same function and starts what it wrote.
 */
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

export const SERVER_ENTRIES = { main: 'server/main.ts', bot: 'bot/main.ts', admin: 'server/admin.ts' }

/** Bundles the entries into `outdir`; returns esbuild's metafile (what each output imports). */
export const buildServer = async (outdir = 'dist-server') => {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const result = await build({
    absWorkingDir: root,
    entryPoints: SERVER_ENTRIES,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    // The image's Node is 24; the code stays valid on 22 (package.json's engines).
    target: 'node22',
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  })
  return result.metafile
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildServer(process.argv[2] ?? 'dist-server')
}
