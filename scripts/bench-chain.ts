/**
 * `npm run bench:chain`: the chain side through the v4 path, timed. The reference backend (a SQLite
 * file), the local @ton/sandbox chain behind its v4 API, and the backend's own watcher and payouts
 * (server/chain/) reading it through TonClient4, as live:
 *   1. 1 000 bonds are created through the API, and their 1 000 payments sent to the treasury in a
 *      burst (20 dev wallets) while the watcher is not polling; then the watcher's passes page back
 *      through the treasury's history and credit them all. Time to send, time to credit.
 *   2. 200 sales are created through the API and paid: payout passes (4 messages per v4r2 transfer,
 *      255 per W5 one with BENCH_TREASURY=v5r1)
 *      and watcher passes until every one is confirmed on the chain. Time until all are paid.
 * Figures in docs/benchmarks.md ("Chain: bond payments and sales through the v4 API").
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { DEV_BOT_TOKEN, startServer } from '../server/main.ts'
import { WalletContractV5R1 } from '@ton/ton'
import { localTreasuryAddress, treasuryKey } from '../stand-ins/chain/dev-keys.ts'
import { commentCell, LocalChain } from '../stand-ins/chain/local-chain.ts'
import { registerV4Routes } from '../stand-ins/chain/v4-api.ts'
import { signInitDataFor } from '../tests/support/init-data.ts'
import { benchApi } from './bench-api.ts'

const BONDS = Number(process.env.BENCH_BONDS ?? 1000)
const SALES = Number(process.env.BENCH_SALES ?? 200)
const WALLETS = 20
const TREASURY = process.env.BENCH_TREASURY === 'v5r1' ? 'v5r1' : 'v4r2'
const w5Of = (publicKey: Buffer) => WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -239 } })

const ms = (t0: number) => Math.round(performance.now() - t0)

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'axiom-bench-chain-'))
  // The server's clock runs 10 minutes ahead: the bonds' 60 s validity then covers the whole burst
  // (creating and paying 1 000 bonds takes longer than 60 s); the chain's own time is unchanged.
  const server = await startServer({
    port: 0,
    dbPath: join(dir, 'axiom.db'),
    treasuryAddress: TREASURY === 'v5r1' ? w5Of(treasuryKey().keyPair.publicKey).address.toRawString() : localTreasuryAddress(),
    rateLimits: null,
    welcomeBalanceNano: 0n,
    now: () => Math.floor(Date.now() / 1000) + 600,
  })
  const chain = await LocalChain.create({ devWallets: WALLETS, devWalletBalance: 1_000_000_000_000_000n })
  const v4 = Fastify({ logger: false })
  registerV4Routes(v4, chain)
  const endpoint = await v4.listen({ port: 0, host: '127.0.0.1' })
  // BENCH_TREASURY=v5r1: a W5 treasury (255 messages a transfer), funded from the faucet and deployed by the payouts.
  const w5 = TREASURY === 'v5r1' ? w5Of(chain.treasury.keyPair.publicKey) : null
  if (w5) await chain.faucet(w5.address, 100_000_000_000_000n)
  const treasuryAddress = w5 ? w5.address : chain.treasury.wallet.address
  const svc = await server.startChain({
    endpoint,
    treasury: w5 ? { version: 'v5r1', keyPair: chain.treasury.keyPair, wallet: w5 } : { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
    fromStart: true,
    pollMs: 0,
    payoutMs: 0,
  })
  if (w5) await svc.payouts.pass()
  try {
    const api = benchApi(server.url)
    const reg = await api('/auth/register', null, { init_data: signInitDataFor({ id: 77001 }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN) })
    const token = reg.token as string

    let t0 = performance.now()
    const bonds: Array<{ id: string; nano: bigint; comment: string }> = []
    for (let i = 0; i < BONDS; i++) {
      const b = await api('/mint/create', token, { amount: 10 + i, days: 30 })
      bonds.push({ id: String(b.mint.id), nano: BigInt(b.payment.amount_nano), comment: b.payment.comment })
    }
    const createMs = ms(t0)

    t0 = performance.now()
    // A burst: each wallet's payments follow each other (one seqno after another); wallets interleave.
    await Promise.all(
      Array.from({ length: WALLETS }, async (_, w) => {
        for (let i = w; i < BONDS; i += WALLETS) {
          const b = bonds[i]!
          await chain.transfer(chain.devWallet(w), [{ to: treasuryAddress, value: b.nano, body: commentCell(b.comment), bounce: true }])
        }
      }),
    )
    const sendMs = ms(t0)

    t0 = performance.now()
    let passes = 0
    while (svc.watcher.decided.filter((r) => r.outcome === 'activated').length < BONDS && passes < 50) {
      await svc.watcher.pass()
      passes++
    }
    const creditMs = ms(t0)
    const activated = svc.watcher.decided.filter((r) => r.outcome === 'activated').length
    const active = (await server.ctx.db.all<{ n: bigint }>(`SELECT COUNT(*) AS n FROM mints WHERE status = 'active'`))[0]!.n

    await server.admin.credit(77001, String(SALES * 10))
    t0 = performance.now()
    const to = chain.devWallet(0).friendly
    for (let i = 0; i < SALES; i++) await api('/withdraw/create', token, { token_amount: `1.${String(i).padStart(3, '0')}`, address: to })
    const salesCreateMs = ms(t0)

    t0 = performance.now()
    let rounds = 0
    const paidCount = async () => (await svc.outgoing()).filter((r) => r.kind === 'sale' && r.state === 'paid').length
    while ((await paidCount()) < SALES && rounds < 500) {
      await svc.payouts.pass()
      await svc.watcher.pass()
      rounds++
    }
    const payMs = ms(t0)
    const paid = await paidCount()
    const messages = new Set((await svc.outgoing()).filter((r) => r.kind === 'sale').map((r) => r.msgHash)).size

    const lines = [
      `bench:chain (${new Date().toISOString()}, node ${process.version}, ${TREASURY} treasury, SQLite file, local v4 API over @ton/sandbox, TonClient4)`,
      `  ${BONDS} bonds created through the API            ${createMs} ms`,
      `  ${BONDS} payments sent to the treasury (burst, ${WALLETS} wallets)  ${sendMs} ms`,
      `  credited through the v4 path                 ${creditMs} ms  (${passes} watcher passes; ${activated} activated, ${active} active bonds)`,
      `  ${SALES} sales created through the API           ${salesCreateMs} ms`,
      `  ${SALES} sales paid and confirmed                ${payMs} ms  (${rounds} payout+watcher rounds, ${messages} treasury messages of up to ${TREASURY === 'v5r1' ? 255 : 4}; ${paid} paid)`,
    ]
    console.log(lines.join('\n'))
    if (activated !== BONDS || Number(active) !== BONDS || paid !== SALES) {
      console.error('FAIL: not every payment was credited or every sale paid')
      process.exitCode = 1
    }
  } finally {
    await svc.stop()
    await server.close()
    await v4.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
