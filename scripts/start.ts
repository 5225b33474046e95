/**
 * `npm start`: the whole product on one machine, offline — the reference backend and the app's
 * dev server (which proxies /api, sockets included, to the backend).
 */
import { spawn } from 'node:child_process'
import { createServer } from 'vite'

const backendPort = Number(process.env.PORT ?? 8787)
const backendUrl = `http://127.0.0.1:${backendPort}`

const waitFor = async (url: string, timeoutMs: number) => {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

const backend = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(backendPort) },
})
backend.on('exit', (code) => {
  console.error(`reference backend exited (${code})`)
  process.exit(code ?? 1)
})

const stop = () => {
  backend.kill('SIGTERM')
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

await waitFor(`${backendUrl}/api/maintenance/`, 60_000)
const app = await createServer({ configFile: 'vite.config.ts', server: { proxy: { '/api': { target: backendUrl, ws: true } } } })
await app.listen()
console.log('')
console.log(`  AXIOM reference backend  ${backendUrl}/api`)
for (const url of app.resolvedUrls?.local ?? []) console.log(`  AXIOM mini app           ${url}`)
console.log('')
