/**
 * The `axiom` command: `node --import tsx cli/axiom.ts <command>`, or `npx axiom`
 * through bin.mjs. Wires the real process to run(); Ctrl-C aborts a running `watch` cleanly.
 */
import { run } from './run.ts'

const controller = new AbortController()
let interrupted = false
const interrupt = () => {
  // A second Ctrl-C while stopping ends the process at once.
  if (interrupted) process.exit(130)
  interrupted = true
  controller.abort()
}
process.on('SIGINT', interrupt)
process.on('SIGTERM', interrupt)

const code = await run(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
})
process.exitCode = code
// Open handles (a socket's reconnect timer, keep-alive connections) must not keep a finished command alive.
setTimeout(() => process.exit(code), 100).unref()
