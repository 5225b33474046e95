import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ok, startBotApiFake, type BotApiFake } from '../support/bot-api-fake.ts'
import { freePort } from '../support/free-port.ts'

/**
 * deploy/alertmanager/alertmanager.yml, run by Debian's Alertmanager (package prometheus-alertmanager;
 * `npm test` installs it, scripts/ensure-installed.mjs): it takes an alert as Prometheus posts it
 * (Alertmanager's API v2, written here by hand) and sends it to the operators' chat through the Bot API
 * (tests/support/bot-api-fake.ts, written from Telegram's docs).
 *
 * Debian ships Alertmanager 0.25, which reads the bot's token only inline (`bot_token`); compose's
 * image (0.28) reads the shipped `bot_token_file`. The test writes that one line as 0.25 wants it and
 * points `telegram_api_url` at the fake; everything else is the shipped file as it is.
 */
const ALERTMANAGER = process.env.ALERTMANAGER_PATH ?? '/usr/bin/prometheus-alertmanager'
const AMTOOL = process.env.AMTOOL_PATH ?? '/usr/bin/amtool'
const shipped = readFileSync(fileURLToPath(new URL('../../deploy/alertmanager/alertmanager.yml', import.meta.url)), 'utf8')
const TOKEN = '7000000001:AAalertsOnlyBotTokenForTheTest'

const skipped = existsSync(ALERTMANAGER) && existsSync(AMTOOL) ? null : `no Alertmanager at ${ALERTMANAGER} (apt-get install -y --no-install-recommends prometheus-alertmanager)`
if (skipped) console.warn(`alertmanager.test.ts: SKIPPED: ${skipped}`)

/** The shipped file as Debian's 0.25 takes it, sending to `apiUrl`. */
const forDebian = (apiUrl: string): string => {
  const token = shipped.replace('bot_token_file: /run/secrets/alert_bot_token', `bot_token: "${TOKEN}"`)
  const api = token.replace('telegram_api_url: https://api.telegram.org', `telegram_api_url: ${apiUrl}`)
  if (token === shipped || api === token) throw new Error('the shipped alertmanager.yml changed: update the lines this test rewrites')
  return api
}

const waitFor = async <T,>(what: string, read: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe('deploy/alertmanager/alertmanager.yml, as shipped', () => {
  it('reads the bot token from the Docker secret, never inline, and sends resolved notices in plain text', () => {
    expect(shipped).toMatch(/bot_token_file: \/run\/secrets\/alert_bot_token\n/)
    expect(shipped).not.toMatch(/\n\s+bot_token:/)
    expect(shipped).toMatch(/send_resolved: true\n/)
    expect(shipped).toMatch(/parse_mode: ''\n/)
  })

  it('names alerts that deploy/prometheus/alerts.yml defines in its inhibitions', () => {
    const rules = readFileSync(fileURLToPath(new URL('../../deploy/prometheus/alerts.yml', import.meta.url)), 'utf8')
    const named = [...shipped.matchAll(/alertname="(\w+)"/g)].map((m) => m[1]!)
    expect(named.length).toBeGreaterThan(0)
    for (const name of named) expect(rules).toContain(`- alert: ${name}\n`)
  })

  it('is sent to by the Prometheus of compose', () => {
    const prometheus = readFileSync(fileURLToPath(new URL('../../deploy/prometheus/prometheus.yml', import.meta.url)), 'utf8')
    expect(prometheus).toMatch(/\nalerting:\n\s+alertmanagers:\n\s+- static_configs:\n\s+- targets: \["alertmanager:9093"\]\n/)
  })
})

describe.skipIf(skipped !== null)("Debian's Alertmanager on the shipped configuration", () => {
  let dir = ''
  let bot: BotApiFake
  let am: ChildProcess
  let url = ''
  let log = ''

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'axiom-alertmanager-'))
    bot = await startBotApiFake(TOKEN)
    bot.on('sendMessage', (params) => ok({ message_id: bot.callsOf('sendMessage').length, date: Math.floor(Date.now() / 1000), chat: { id: params.chat_id, type: 'supergroup', title: 'AXIOM operators' }, text: params.text }))
    writeFileSync(join(dir, 'alertmanager.yml'), forDebian(bot.url))
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    am = spawn(ALERTMANAGER, [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='], { stdio: ['ignore', 'pipe', 'pipe'] })
    am.stdout!.on('data', (d: Buffer) => (log += d.toString()))
    am.stderr!.on('data', (d: Buffer) => (log += d.toString()))
    await waitFor('Alertmanager ready', async () => ((await fetch(`${url}/-/ready`).catch(() => null))?.ok ? true : undefined), 30_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${log}`)
    })
  }, 60_000)

  afterAll(async () => {
    // Alertmanager writes its notification log and silences into its data folder as it shuts down:
    // the folder is removed once the process has gone, not while it is still writing there.
    if (am && am.exitCode === null && am.signalCode === null) {
      const exited = new Promise<void>((resolve) => am.once('close', () => resolve()))
      am.kill('SIGTERM')
      await exited
    }
    await bot?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('amtool accepts the file', () => {
    const check = spawnSync(AMTOOL, ['check-config', join(dir, 'alertmanager.yml')], { encoding: 'utf8', timeout: 30_000 })
    expect(check.stdout + check.stderr).toContain('SUCCESS')
    expect(check.status).toBe(0)
  })

  it("delivers a critical alert, posted as Prometheus posts it, to the operators' chat with its summary and what to do", async () => {
    // Alertmanager's API v2 (POST /api/v2/alerts: a list of postable alerts), as Prometheus sends a firing rule.
    const body = `[{"labels":{"alertname":"AxiomPayoutFailed","severity":"critical","kind":"sale","instance":"worker:9464"},"annotations":{"summary":"2 outgoing payment(s) of kind sale failed and wait for the operator","description":"A payment failed after every retry (or its address cannot be paid). npm run admin -- payouts all shows it and why."},"startsAt":"${new Date().toISOString()}","generatorURL":"http://172.31.250.249:9090/graph"}]`
    const posted = await fetch(`${url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(posted.status).toBe(200)

    const sent = await waitFor('a sendMessage to the operators', () => bot.callsOf('sendMessage')[0], 45_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${log}`)
    })
    // Integer or String, as the Bot API takes it: Alertmanager sends the configured id as a string.
    expect(String(sent.params.chat_id)).toBe('-1000000000000')
    const text = String(sent.params.text)
    expect(text).toContain('FIRING AxiomPayoutFailed (critical)')
    expect(text).toContain('2 outgoing payment(s) of kind sale failed and wait for the operator')
    expect(text).toContain('npm run admin -- payouts all shows it and why.')
    // Plain text: no parse mode, so the texts' characters are never taken as markup.
    expect(sent.params.parse_mode ?? '').toBe('')
  }, 60_000)
})
