import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs'
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

/** A mnemonic's words from its text, or null when there are none. */
const wordsOf = (text: string | undefined): string[] | null => (text === undefined || text.trim() === '' ? null : text.trim().split(/\s+/))

/** The modes a key file may have: read (and write) by its owner, nothing for anyone else. */
export const KEY_FILE_MODES: ReadonlyArray<number> = [0o600, 0o400]

/**
 * Why a key file of `mode` owned by `owner` is not readable by the process's user (`uid`) alone, or
 * null when it is: a regular file, mode 0600 or 0400, owned by `uid` (no owner check without a uid).
 */
export const keyFileProblem = (st: { mode: number; uid: number; isFile(): boolean }, uid: number | null): string | null => {
  if (!st.isFile()) return 'is not a regular file'
  const mode = st.mode & 0o7777
  if (!KEY_FILE_MODES.includes(mode)) return `has mode 0${mode.toString(8).padStart(3, '0')}: only its owner may read it (chmod 400 or 600)`
  if (uid !== null && st.uid !== uid) return `is owned by uid ${st.uid}, not by this process's uid ${uid} (chown it to the user the backend runs as)`
  return null
}

/**
 * Production's one way to the treasury key: the file AXIOM_TREASURY_MNEMONIC_FILE names, readable by
 * this process's user alone (keyFileProblem). No environment variable may hold the words: with
 * AXIOM_TREASURY_MNEMONIC set at all (even empty) it throws. The file is opened once and checked
 * through that descriptor, so what is read is what was checked. Null when no file is named; throws
 * (one line, naming the variable) on anything else.
 */
export const mnemonicFromKeyFile = (env: NodeJS.ProcessEnv, uid: number | null = process.getuid?.() ?? null): string[] | null => {
  if (env.AXIOM_TREASURY_MNEMONIC !== undefined) {
    throw new Error('AXIOM_TREASURY_MNEMONIC is set: production reads the treasury key only from the file AXIOM_TREASURY_MNEMONIC_FILE names (no environment variable may hold it)')
  }
  const path = env.AXIOM_TREASURY_MNEMONIC_FILE?.trim()
  if (!path) return null
  let fd: number
  try {
    // A symbolic link is followed (Kubernetes mounts secrets so): what is checked is the file it names.
    fd = openSync(path, 'r')
  } catch (e) {
    throw new Error(`AXIOM_TREASURY_MNEMONIC_FILE ${path} is not readable (${(e as NodeJS.ErrnoException).code ?? e})`)
  }
  try {
    const why = keyFileProblem(fstatSync(fd), uid)
    if (why) throw new Error(`AXIOM_TREASURY_MNEMONIC_FILE ${path} ${why}`)
    return wordsOf(readFileSync(fd, 'utf8'))
  } finally {
    closeSync(fd)
  }
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
