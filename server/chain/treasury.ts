import { readFileSync } from 'node:fs'
import { Address } from '@ton/core'
import { mnemonicToPrivateKey, mnemonicValidate, type KeyPair } from '@ton/crypto'
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton'

/** The TON networks by name, and the global id wallets and tonProofs carry. */
export type TonNetwork = 'mainnet' | 'testnet'
export const NETWORK_GLOBAL_ID: Readonly<Record<TonNetwork, number>> = { mainnet: -239, testnet: -3 }

/** A treasury is a wallet v5r1 (W5, the default) or v4r2. */
export type TreasuryVersion = 'v5r1' | 'v4r2'
/** How many messages one transfer of each version carries. */
export const MAX_MESSAGES: Readonly<Record<TreasuryVersion, number>> = { v5r1: 255, v4r2: 4 }

export type TreasuryContract = WalletContractV5R1 | WalletContractV4

export interface TreasuryKey {
  readonly version: TreasuryVersion
  readonly network: TonNetwork
  readonly keyPair: KeyPair
  readonly wallet: TreasuryContract
  readonly address: Address
}

export const parseNetwork = (v: string | undefined): TonNetwork => {
  const n = (v ?? '').trim().toLowerCase()
  if (n !== 'mainnet' && n !== 'testnet') throw new Error(`AXIOM_TON_NETWORK must be mainnet or testnet (got "${v ?? ''}")`)
  return n
}

export const parseTreasuryVersion = (v: string | undefined): TreasuryVersion => {
  const t = (v ?? 'v5r1').trim().toLowerCase()
  if (t !== 'v5r1' && t !== 'v4r2') throw new Error(`AXIOM_TREASURY_WALLET must be v5r1 or v4r2 (got "${v}")`)
  return t
}

/** The wallet contract of a public key: W5's address depends on the network (its wallet id holds the global id). */
export const treasuryWallet = (publicKey: Buffer, version: TreasuryVersion, network: TonNetwork): TreasuryContract =>
  version === 'v4r2'
    ? WalletContractV4.create({ workchain: 0, publicKey })
    : WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: NETWORK_GLOBAL_ID[network] } })

/** The mnemonic's words from AXIOM_TREASURY_MNEMONIC, or the file AXIOM_TREASURY_MNEMONIC_FILE names; null when neither is set. */
export const mnemonicFromEnv = (env: NodeJS.ProcessEnv): string[] | null => {
  let text = env.AXIOM_TREASURY_MNEMONIC
  if ((text === undefined || text.trim() === '') && env.AXIOM_TREASURY_MNEMONIC_FILE) {
    try {
      text = readFileSync(env.AXIOM_TREASURY_MNEMONIC_FILE, 'utf8')
    } catch (e) {
      throw new Error(`AXIOM_TREASURY_MNEMONIC_FILE ${env.AXIOM_TREASURY_MNEMONIC_FILE} is not readable (${(e as NodeJS.ErrnoException).code ?? e})`)
    }
  }
  if (text === undefined || text.trim() === '') return null
  return text.trim().split(/\s+/)
}

export const treasuryFromMnemonic = async (words: ReadonlyArray<string>, version: TreasuryVersion, network: TonNetwork): Promise<TreasuryKey> => {
  if (!(await mnemonicValidate([...words]))) throw new Error('the treasury mnemonic is not a valid TON mnemonic')
  const keyPair = await mnemonicToPrivateKey([...words])
  const wallet = treasuryWallet(keyPair.publicKey, version, network)
  return { version, network, keyPair, wallet, address: wallet.address }
}

/** Parses an address; a friendly one also says which network it is flagged for. */
export const parseTreasuryAddress = (text: string): { address: Address; testOnly: boolean | null } => {
  const t = text.trim()
  if (Address.isFriendly(t)) {
    const f = Address.parseFriendly(t)
    return { address: f.address, testOnly: f.isTestOnly }
  }
  return { address: Address.parseRaw(t), testOnly: null }
}
