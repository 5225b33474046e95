/**
 * Creates a treasury: a new 24-word mnemonic and its wallet's address, for the worker's key file
 * (AXIOM_TREASURY_MNEMONIC_FILE) and AXIOM_TREASURY (docs/deploy.md, "Going live on TON"):
 *   npm run treasury:new -- testnet [v5r1|v4r2]
 */
import { pathToFileURL } from 'node:url'
import { mnemonicNew } from '@ton/crypto'
import { parseNetwork, parseTreasuryVersion, treasuryFromMnemonic, type TonNetwork, type TreasuryVersion } from './treasury.ts'

export interface NewTreasury {
  readonly mnemonic: string
  readonly address: string
  readonly network: TonNetwork
  readonly version: TreasuryVersion
}

export const newTreasury = async (network: TonNetwork, version: TreasuryVersion): Promise<NewTreasury> => {
  const words = await mnemonicNew(24)
  const key = await treasuryFromMnemonic(words, version, network)
  // Non-bounceable, as wallets show an address to fund; flagged for testnet on testnet.
  return { mnemonic: words.join(' '), address: key.address.toString({ bounceable: false, testOnly: network === 'testnet', urlSafe: true }), network, version }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const [net, ver] = process.argv.slice(2)
    const t = await newTreasury(parseNetwork(net), parseTreasuryVersion(ver))
    console.log(
      [
        `A new ${t.version} treasury on ${t.network}. Keep the mnemonic secret and backed up: it is the only key to the treasury.`,
        `AXIOM_TON_NETWORK=${t.network}`,
        `AXIOM_TREASURY_WALLET=${t.version}`,
        `AXIOM_TREASURY=${t.address}`,
        '',
        'The mnemonic (production reads it from a file only, AXIOM_TREASURY_MNEMONIC_FILE, never from the environment):',
        t.mnemonic,
        "Write it into the worker's key file, readable by the worker's user alone (mode 0400 or 0600, owned by it), e.g.",
        '  (umask 077 && cat > treasury.mnemonic)    # paste the line above, then Ctrl-D',
        '  chmod 400 treasury.mnemonic',
      ].join('\n'),
    )
  } catch (e) {
    console.error(e instanceof Error ? e.message : e)
    console.error('usage: npm run treasury:new -- <mainnet|testnet> [v5r1|v4r2]')
    process.exitCode = 1
  }
}
