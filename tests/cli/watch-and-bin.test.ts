import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliStack, freshId, Sink, startCliStack } from './support.ts'

let stack: CliStack

beforeAll(async () => {
  stack = await startCliStack()
})
afterAll(() => stack.close())

const ndjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; event?: string; socket?: string; mints?: any[]; stakes?: any[]; data?: any })

describe('watch', () => {
  it('merges a live user:mint into the list, ticks rewards, and stops on abort', async () => {
    const u = stack.user()
    expect((await u.run(['login', '--dev-user', String(freshId())])).code).toBe(0)
    const { mint } = (await u.run(['bond', '100', '--days', '10', '--json'])).json()

    const stdout = new Sink()
    const abort = new AbortController()
    const running = u.run(['watch', '--json'], { stdout, signal: abort.signal })
    // The socket is authenticated once the server pushed the balance.
    await stdout.until((t) => t.includes('"event":"user:balance"'))
    const first = ndjson(stdout.text).find((l) => l.type === 'snapshot')!
    expect(first.mints).toMatchObject([{ id: mint.id, status: 'pending', reward: 0 }])

    await stack.server.markMintPaid(mint.id)
    await stdout.until((t) => t.includes('"event":"user:mint"'))
    // Two ticks after the event: the active bond keeps earning.
    const ticksAfter = () => ndjson(stdout.text).filter((l) => l.type === 'snapshot' && l.mints?.[0]?.status === 'active')
    await stdout.until(() => ticksAfter().length >= 3, 8000)
    abort.abort()
    const r = await running
    expect(r.code).toBe(0)

    const lines = ndjson(stdout.text)
    expect(lines.find((l) => l.type === 'status')?.socket).toBe('connecting')
    expect(lines.some((l) => l.type === 'status' && l.socket === 'open')).toBe(true)
    const event = lines.find((l) => l.event === 'user:mint')!
    expect(event.data).toMatchObject({ id: mint.id, status: 'active', expected_token: 100 })
    // Merged: the pending bond was replaced by the live one, not duplicated.
    const snaps = ticksAfter()
    for (const s of snaps) expect(s.mints).toHaveLength(1)
    const rewards = snaps.map((s) => s.mints![0].reward as number)
    expect(rewards[rewards.length - 1]).toBeGreaterThan(rewards[0]!)
    expect(r.stderr).toContain(`New Bond created (#${mint.id})`)
  })

  it('prints tables when piped and stops after --for', async () => {
    const u = stack.user()
    expect((await u.run(['login', '--dev-user', String(freshId())])).code).toBe(0)
    const started = Date.now()
    const r = await u.run(['watch', '--for', '1'])
    expect(r.code).toBe(0)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(r.stdout).toContain('Bonds\nNo bonds')
    expect(r.stdout).toMatch(/Balance 100\.00/)
    expect((await u.run(['watch', '--for', 'soon'])).code).toBe(2)
  })
})

describe('the bin shim', () => {
  it('runs the real executable as a process', async () => {
    const u = stack.user()
    expect((await u.run(['login', '--dev-user', String(freshId())])).code).toBe(0)
    const bin = fileURLToPath(new URL('../../cli/bin.mjs', import.meta.url))
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(bin, ['balances', '--json'], { env: { ...process.env, ...u.env } })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (d) => (stdout += d))
      child.stderr.on('data', (d) => (stderr += d))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ balance_token: 100, task_balance: 0, referral_balance: 0 })
  })
})
