import { join } from 'node:path'
import type { WalletTransaction } from '../core/index.ts'
import { JsonFileStorage, TonConnectSdkWallet } from '../adapters/node/ton-connect-sdk-wallet.ts'

/** The local TON server of `npm run server` (v4 API, bridge, dev wallet): docs/local-stack.md. */
export const DEFAULT_TON = 'http://127.0.0.1:8788'

/** The file in AXIOM_HOME that keeps the TON Connect connection between runs. */
export const WALLET_FILE_NAME = 'tonconnect.json'

export interface CliWalletSetup {
  readonly tonUrl: string
  readonly v4Endpoint: string
  readonly manifestUrl: string
  readonly walletsListSource: string
}

/** Where the wallet and the chain are, from the environment (docs/cli.md). */
export const walletSetup = (env: Readonly<Record<string, string | undefined>>): CliWalletSetup => {
  const tonUrl = (env.AXIOM_TON || DEFAULT_TON).replace(/\/+$/, '')
  return {
    tonUrl,
    v4Endpoint: (env.AXIOM_TON_V4 || tonUrl).replace(/\/+$/, ''),
    manifestUrl: env.AXIOM_TONCONNECT_MANIFEST || `${tonUrl}/tonconnect-manifest.json`,
    walletsListSource: `${tonUrl}/wallets-v2.json`,
  }
}

/**
 * How the CLI hands a TON Connect link to a wallet. A terminal shows no QR code: the link is
 * printed (open it where the wallet is, or paste it into the dev wallet page). With the dev wallet
 * (`--dev-wallet` or AXIOM_DEV_WALLET=1) it is also posted to the local dev wallet's API, as if
 * the user had scanned it.
 */
export class CliLinkOpener {
  /** Set by `wallet connect --dev-wallet`. */
  devWallet: boolean

  constructor(
    private readonly setup: CliWalletSetup,
    private readonly print: (line: string) => void,
    env: Readonly<Record<string, string | undefined>>,
  ) {
    this.devWallet = env.AXIOM_DEV_WALLET === '1' || env.AXIOM_DEV_WALLET === 'true'
  }

  async open(link: string): Promise<void> {
    if (!this.devWallet) {
      this.print(`Open this link in your TON wallet to connect:\n  ${link}`)
      this.print(`(the local dev wallet: paste it on ${this.setup.tonUrl}/dev-wallet, or run axiom wallet connect --dev-wallet)`)
      return
    }
    const endpoint = `${this.setup.tonUrl}/dev-wallet/api/connect`
    let res: Response
    try {
      res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ link }),
        signal: AbortSignal.timeout(10_000),
      })
    } catch {
      throw new Error(`the dev wallet at ${endpoint} cannot be reached (is npm run server running? AXIOM_TON sets its URL)`)
    }
    const body = (await res.json().catch(() => ({}))) as { requestId?: string | null; msg?: string }
    if (!res.ok) throw new Error(`the dev wallet refused the link: ${body.msg ?? res.status}`)
    if (body.requestId) this.print(`Approve the connection on ${this.setup.tonUrl}/dev-wallet`)
  }
}

/** The CLI's wallet: TON Connect through the real SDK, its connection kept in AXIOM_HOME. */
export const cliWallet = (
  home: string,
  setup: CliWalletSetup,
  opener: CliLinkOpener,
  hooks: { onSendTransaction?: (tx: WalletTransaction) => void; sdkLog?: (level: string, args: unknown[]) => void },
) =>
  new TonConnectSdkWallet({
    manifestUrl: setup.manifestUrl,
    walletsListSource: setup.walletsListSource,
    storage: new JsonFileStorage(join(home, WALLET_FILE_NAME)),
    openLink: (link) => opener.open(link),
    ...(hooks.onSendTransaction ? { onSendTransaction: hooks.onSendTransaction } : {}),
    ...(hooks.sdkLog ? { sdkLog: hooks.sdkLog } : {}),
  })
