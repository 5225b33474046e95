import { type ChildProcess, spawn } from 'node:child_process'

/**
 * The reference backend in a process of its own (`node --import tsx server/main.ts`, on a random
 * port), for what must be killed or loaded from outside: resolves with its URL once it says it
 * listens, and rejects (with what it printed) if it exits first. `nodeOptions` go before the script
 * (for example `--cpu-prof`).
 */
export const spawnBackend = async (env: NodeJS.ProcessEnv, nodeOptions: readonly string[] = []): Promise<{ url: string; proc: ChildProcess }> => {
  const proc = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /on (http:\/\/\S+)\/api/.exec(out)
      if (m) resolve(m[1]!)
    })
    proc.once('exit', (code) => reject(new Error(`backend exited with ${code}: ${out}`)))
  })
  return { url, proc }
}
