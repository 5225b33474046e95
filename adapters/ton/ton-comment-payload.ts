import { Address, beginCell } from '@ton/core'

/** A text comment as a message body (op 0 + the text), base64 BOC, the form wallets show to users. */
export const commentPayload = (text: string): string =>
  beginCell().storeUint(0, 32).storeStringTail(text).endCell().toBoc().toString('base64')

/** The user-facing form of a raw address: non-bounceable (a wallet), test-flagged on testnet. */
export const friendlyAddress = (raw: string, chain: string): string =>
  Address.parse(raw).toString({ bounceable: false, testOnly: chain === '-3', urlSafe: true })

/** The address form wallets accept in a transaction: raw addresses become friendly, bounceable ones. */
export const transferAddress = (address: string): string =>
  /^-?\d+:[0-9a-fA-F]{64}$/.test(address) ? Address.parse(address).toString({ bounceable: true, urlSafe: true }) : address
