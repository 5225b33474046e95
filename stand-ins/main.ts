/**
 * The reference backend with its offline TON stand-ins (docs/local-stack.md), what `npm run server`
 * and `npm start` run:
 *   node --import tsx stand-ins/main.ts
 * The local TON server is on unless AXIOM_LOCAL_TON=0; it owns the treasury. server/main.ts alone
 * runs the backend without it.
 */
import { pathToFileURL } from 'node:url'
import { optionsFromEnv, startServer } from '../server/main.ts'
import { attachLocalTon, localTonOptionsFromEnv, localTreasuryAddress, printLocalTon } from './local-ton.ts'

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const localTon = process.env.AXIOM_LOCAL_TON !== '0'
  const options = localTon && !process.env.AXIOM_TREASURY ? { ...optionsFromEnv(), treasuryAddress: localTreasuryAddress() } : optionsFromEnv()
  const server = await startServer(options)
  console.log(`AXIOM reference backend on ${server.url}/api (db ${server.ctx.engine.where})`)
  const ton = localTon
    ? await attachLocalTon(server, localTonOptionsFromEnv()).catch((e: unknown) => {
        console.error(`AXIOM local TON did not start (${e instanceof Error ? e.message : e}); the backend runs without it`)
        return null
      })
    : null
  if (ton) printLocalTon(ton)
  const stop = () => {
    void (ton?.close() ?? Promise.resolve()).then(() => server.close()).then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
