import { type Mint, type WalletAccount, WalletNotConnected, type WalletTransaction } from '../../core/index.ts'
import { amountArg, Exit, wholeArg } from '../args.ts'
import { type CliContext, EffectFailure, runEffect } from '../context.ts'
import { nanoToTon, type Out, tokens, when } from '../output.ts'
import { dailyRate, formatRate } from '../records.ts'
import { keyValues } from '../table.ts'
import { type Command, newKey } from './command.ts'
import { COIN } from '../../core/domain/constants.ts'

/** How long `bond` waits for a paid bond to become active, by default. */
export const BOND_ACTIVE_WAIT_S = 90

const BOND_POLL_MS = 500

/** The payment that activates a pending bond, as printed and as --json. */
const paymentView = (p: { address: string; amount_nano: string; comment: string; valid_until: number }) => {
  const amountTon = nanoToTon(p.amount_nano)
  return {
    ...p,
    amount_ton: amountTon,
    link: `ton://transfer/${p.address}?amount=${p.amount_nano}&text=${encodeURIComponent(p.comment)}`,
  }
}

const paymentLines = (p: ReturnType<typeof paymentView>) =>
  keyValues([
    ['Pay to', p.address],
    ['Amount', `${p.amount_ton} ${COIN}`],
    ['Comment', p.comment],
    ['Valid until', `${when(p.valid_until)} UTC`],
    ['Wallet link', p.link],
  ])

/** No wallet connected: creates the pending bond and prints the payment for any wallet to send. */
const printBondPayment = async (ctx: CliContext, out: Out, amount: number, days: number) => {
  const { mint, payment } = await out.exec(ctx.uc.orderBond(amount, days, { idempotencyKey: newKey() }), 'Creating the bond')
  const p = paymentView(payment)
  out.emit(
    { mint, payment: p, paid: false },
    () =>
      `Bond #${mint.id} created: ${tokens(mint.amount_token)} AXIOM for ${mint.tariff_days} days (pending until paid)\n\n` +
      paymentLines(p) +
      '\nThe bond becomes active when the payment arrives (watch it: axiom watch).\n' +
      'To pay from the terminal, connect a wallet first: axiom wallet connect --dev-wallet (local stack)\n',
  )
}

/** Polls the bonds until `id` is no longer pending (the chain watcher activated it), or the wait ends. */
const waitUntilActive = async (ctx: CliContext, id: Mint['id'], seconds: number): Promise<Mint | null> => {
  const until = Date.now() + seconds * 1000
  for (;;) {
    const list = await runEffect(ctx.uc.loadMints())
    const found = list.find((m) => m.id === id)
    if (found && found.status !== 'pending') return found
    if (Date.now() >= until || ctx.io.signal?.aborted) return found ?? null
    await new Promise((resolve) => setTimeout(resolve, BOND_POLL_MS))
  }
}

/**
 * A connected wallet: the core's buyBond (the pending mint, the wallet's transaction to the
 * treasury with the mint's comment, 'Transaction is being processed', the balance watch), then the
 * wait for the bond to become active. A payment the wallet did not send leaves the pending bond
 * alone, as the app does (the app only stops showing it); the backend expires it unpaid.
 */
const payBond = async (ctx: CliContext, out: Out, amount: number, days: number, account: WalletAccount, waitSeconds: number) => {
  let pending: Mint | null = null
  let sent: WalletTransaction | null = null
  try {
    const purchase = await out.progress('Creating the bond', async (setText) => {
      ctx.walletHooks.onSendTransaction = (tx) => {
        sent = tx
        const m = tx.messages[0]
        if (m && !out.json)
          ctx.notice(`Asking ${account.friendlyAddress ?? account.address} to pay ${nanoToTon(m.amount)} ${COIN} to ${m.address} (comment ${m.comment ?? '-'})`)
        setText('Waiting for the wallet to approve the payment')
      }
      return runEffect(
        ctx.uc.buyBond({
          amount,
          days,
          idempotencyKey: newKey(),
          onPendingMint: (mint) => {
            pending = mint
            if (!out.json) ctx.notice(`Bond #${mint.id} created: ${tokens(mint.amount_token)} AXIOM for ${mint.tariff_days} days (pending until paid)`)
            setText('Preparing the payment')
          },
        }),
      ).then((r) => {
        setText(`Waiting for bond #${r.mint.id} to become active`)
        return r
      })
    })
    const txMessage = (sent as WalletTransaction | null)?.messages[0]
    const payment = txMessage
      ? paymentView({ address: txMessage.address, amount_nano: txMessage.amount, comment: txMessage.comment ?? '', valid_until: sent!.validUntil })
      : null
    const mint = await out.progress(`Waiting for bond #${purchase.mint.id} to become active`, () => waitUntilActive(ctx, purchase.mint.id, waitSeconds))
    const result = {
      mint: mint ?? purchase.mint,
      payment,
      paid: true,
      balance_changed: purchase.balanceChanged,
      wallet: { address: account.address, friendly_address: account.friendlyAddress ?? null },
    }
    if (!mint || mint.status === 'pending') {
      out.emit(result, () => `Paid, but bond #${purchase.mint.id} is not active after ${waitSeconds} s. Check it: axiom mints\n`)
      throw new Exit(1)
    }
    if (mint.status === 'canceled') {
      out.emit(result, `Bond #${mint.id} was canceled before the payment arrived (the payment is refunded)\n`)
      throw new Exit(1)
    }
    out.emit(
      result,
      () =>
        `Paid ${payment ? `${payment.amount_ton} ${COIN} ` : ''}from ${account.friendlyAddress ?? account.address}\n` +
        `Bond #${mint.id} is ${mint.status}: ${tokens(mint.amount_token)} AXIOM for ${mint.tariff_days} days at ${formatRate(dailyRate(mint))} % a day\n`,
    )
  } catch (e) {
    const unpaid = pending as Mint | null
    if (unpaid && e instanceof EffectFailure && !out.json)
      // As in the app, nothing is cancelled: the unpaid bond stays pending until the backend expires it.
      ctx.notice(`Bond #${unpaid.id} was not paid: it stays pending until it expires`)
    throw e
  } finally {
    ctx.walletHooks.onSendTransaction = null
  }
}

export const bond: Command = {
  name: 'bond',
  args: '<amount> --days N [--pay] [--wait SECONDS]',
  summary:
    'Buy a bond: with a connected wallet (axiom wallet connect) it pays and waits until the bond is active; without one it prints the GRAM payment',
  examples: ['axiom bond 200 --days 30', 'axiom wallet connect --dev-wallet && axiom bond 10 --days 10 --pay'],
  options: { days: { type: 'string' }, pay: { type: 'boolean' }, wait: { type: 'string' } },
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const amount = amountArg(a.positionals[0])
    const days = wholeArg(a.values.days, '--days N')
    const waitSeconds = a.values.wait === undefined ? BOND_ACTIVE_WAIT_S : wholeArg(a.values.wait, '--wait SECONDS')
    const account = await out.exec(ctx.uc.restoreWallet(), 'Restoring the wallet connection')
    if (account) return payBond(ctx, out, amount, days, account, waitSeconds)
    if (a.values.pay) {
      ctx.notice('Connect a wallet first: axiom wallet connect --dev-wallet (local stack), or axiom wallet connect')
      throw new EffectFailure(new WalletNotConnected())
    }
    await printBondPayment(ctx, out, amount, days)
  },
}
