import { Effect } from 'effect'
import type { WalletAccount } from '../../core/index.ts'
import type { CliContext } from '../context.ts'
import { nanoToTon, ton } from '../output.ts'
import { keyValues } from '../table.ts'
import type { Command } from './command.ts'

/** What `wallet status` and `wallet connect` show. */
const walletView = async (ctx: CliContext, account: WalletAccount) => {
  const balance = await Effect.runPromise(Effect.result(ctx.chain.balance(account.address)))
  const nano = balance._tag === 'Success' ? balance.success.toString() : null
  return {
    connected: true,
    address: account.address,
    friendly_address: account.friendlyAddress ?? null,
    chain: account.chain,
    wallet: ctx.wallet.walletApp(),
    max_messages: ctx.wallet.maxMessages(),
    balance_nano: nano,
    balance_ton: nano === null ? null : nanoToTon(nano),
  }
}

const walletLines = (v: Awaited<ReturnType<typeof walletView>>) =>
  keyValues([
    ['Address', v.friendly_address ?? v.address],
    ['Raw address', v.address],
    ['Network', v.chain === '-3' ? 'testnet (-3)' : v.chain === '-239' ? 'mainnet id (-239)' : v.chain],
    ['Wallet', v.wallet ?? '-'],
    ['Balance', v.balance_ton === null ? 'unknown (no TON node at AXIOM_TON_V4)' : `${ton(v.balance_ton)} TON`],
  ])

export const walletConnect: Command = {
  name: 'wallet connect',
  args: '[--dev-wallet]',
  summary: 'Connect a TON wallet over TON Connect: prints the link; --dev-wallet hands it to the local dev wallet',
  examples: ['axiom wallet connect --dev-wallet', 'axiom wallet connect'],
  options: { 'dev-wallet': { type: 'boolean' } },
  positionals: [0, 0],
  auth: false,
  async run(ctx, out, a) {
    if (a.values['dev-wallet']) ctx.links.devWallet = true
    const existing = await out.exec(ctx.uc.restoreWallet(), 'Restoring the wallet connection')
    if (existing) {
      const v = await walletView(ctx, existing)
      out.emit({ ...v, already_connected: true }, () => 'Already connected (axiom wallet disconnect first to change it)\n' + walletLines(v))
      return
    }
    const account = await out.exec(ctx.uc.connectWallet(), 'Waiting for the wallet to accept the connection')
    const v = await walletView(ctx, account)
    out.emit(v, () => 'Wallet connected\n' + walletLines(v))
  },
}

export const walletStatus: Command = {
  name: 'wallet status',
  args: '',
  summary: 'The connected wallet: address, network and balance',
  examples: ['axiom wallet status', 'axiom wallet status --json | jq -r .address'],
  positionals: [0, 0],
  auth: false,
  async run(ctx, out) {
    const account = await out.exec(ctx.uc.restoreWallet(), 'Restoring the wallet connection')
    if (!account) {
      out.emit({ connected: false }, 'No wallet connected. Connect one: axiom wallet connect --dev-wallet (local stack)\n')
      return
    }
    const v = await walletView(ctx, account)
    out.emit(v, () => walletLines(v))
  },
}

export const walletDisconnect: Command = {
  name: 'wallet disconnect',
  args: '',
  summary: 'Disconnect the wallet and forget the connection',
  examples: ['axiom wallet disconnect'],
  positionals: [0, 0],
  auth: false,
  async run(ctx, out) {
    const account = await out.exec(ctx.uc.restoreWallet(), 'Restoring the wallet connection')
    await out.exec(ctx.uc.disconnectWallet(), 'Disconnecting')
    out.emit({ disconnected: true, address: account?.address ?? null }, 'Wallet disconnected\n')
  },
}
