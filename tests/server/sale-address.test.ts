import { describe, expect, it } from 'vitest'
import { rawRequest } from './raw-http.ts'
import { serversClosedAfterAll, type Session, type TestServer } from './support.ts'

/**
 * Where a sale may be paid. The addresses are written by hand from TON's user-friendly format (a flag
 * byte: 0x11 bounceable, 0x51 non-bounceable, +0x80 for testnet; the workchain byte; the 32-byte
 * account id; CRC16-XModem of those 34 bytes, big-endian; base64url), not by the library the backend
 * reads them with.
 */

const crc16 = (data: Buffer): number => {
  let crc = 0
  for (const byte of data) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

const friendly = (hash: Buffer, o: { bounceable: boolean; testnet: boolean; workchain?: number }): string => {
  const head = Buffer.from([(o.bounceable ? 0x11 : 0x51) | (o.testnet ? 0x80 : 0), (o.workchain ?? 0) & 0xff])
  const body = Buffer.concat([head, hash])
  const crc = Buffer.alloc(2)
  crc.writeUInt16BE(crc16(body))
  return Buffer.concat([body, crc]).toString('base64url')
}

const TREASURY_HASH = Buffer.from('7a1c0b4e2f0d6a3a9c5e8b1d4f7a2c6e9b3d5f8a1c4e7b2d6f9a3c5e8b1d4f7a', 'hex')
const TREASURY_RAW = `0:${TREASURY_HASH.toString('hex')}`
const USER_HASH = Buffer.from('5a'.repeat(32), 'hex')
const USER_RAW = `0:${'5a'.repeat(32)}`

const start = serversClosedAfterAll()

const sell = (t: TestServer, who: Session, address: string) => {
  const body = JSON.stringify({ from_ref_balance: false, token_amount: '2', address })
  return rawRequest(
    t.server.port,
    ['POST /api/withdraw/create HTTP/1.1', 'Host: 127.0.0.1', `Authorization: Bearer ${who.token}`, 'Content-Type: application/json', `Content-Length: ${body.length}`, '', body].join('\r\n'),
  )
}

/** A user with 100 tokens they may sell. */
const seller = async (t: TestServer, telegramId: number) => {
  const who = await t.login(telegramId)
  await t.server.admin.credit(telegramId, '100')
  return who
}

const balanceOf = async (who: Session) => (await who.call('GET', '/user/me')).body.balance_token as string

describe('a sale to the treasury itself is refused', () => {
  it('in every form (raw, upper-case raw, friendly bounceable, non-bounceable, test-flagged): 422, and nothing is reserved', async () => {
    const t = await start({ treasuryAddress: TREASURY_RAW })
    const who = await seller(t, 1)
    const before = await balanceOf(who)
    for (const address of [
      TREASURY_RAW,
      `0:${TREASURY_HASH.toString('hex').toUpperCase()}`,
      friendly(TREASURY_HASH, { bounceable: true, testnet: false }),
      friendly(TREASURY_HASH, { bounceable: false, testnet: false }),
      friendly(TREASURY_HASH, { bounceable: false, testnet: true }),
    ]) {
      const r = await sell(t, who, address)
      expect([address, r.status, r.json]).toEqual([address, 422, { msg: "address is AXIOM's own treasury: enter the address of your own wallet" }])
    }
    expect(await balanceOf(who)).toBe(before)
    expect((await who.call('GET', '/withdraw/history')).body.total).toBe(0)
  })
})

describe('a sale to an address flagged for the other network is refused', () => {
  it('on mainnet (production names one network: tonProofNetworks ["-239"]): a testnet address is 422', async () => {
    const t = await start({ treasuryAddress: TREASURY_RAW, tonProofNetworks: ['-239'] })
    const who = await seller(t, 2)
    for (const bounceable of [true, false]) {
      const r = await sell(t, who, friendly(USER_HASH, { bounceable, testnet: true }))
      expect([r.status, r.json]).toEqual([422, { msg: 'address is a testnet address, but AXIOM pays on mainnet' }])
    }
    expect((await who.call('GET', '/withdraw/history')).body.total).toBe(0)
    // A mainnet address, and a raw one (which names no network), are paid.
    expect((await sell(t, who, friendly(USER_HASH, { bounceable: true, testnet: false }))).status).toBe(200)
    expect((await sell(t, who, USER_RAW)).status).toBe(200)
  })

  it('on testnet (["-3"]): a mainnet address is 422', async () => {
    const t = await start({ treasuryAddress: TREASURY_RAW, tonProofNetworks: ['-3'] })
    const who = await seller(t, 3)
    const r = await sell(t, who, friendly(USER_HASH, { bounceable: true, testnet: false }))
    expect([r.status, r.json]).toEqual([422, { msg: 'address is a mainnet address, but AXIOM pays on testnet' }])
    expect((await sell(t, who, friendly(USER_HASH, { bounceable: true, testnet: true }))).status).toBe(200)
  })
})

describe('a sale’s address is stored in one form, whatever was typed', () => {
  it('mainnet: friendly, non-bounceable, url-safe (UQ…), in the answer, the history and the operation', async () => {
    const t = await start({ treasuryAddress: TREASURY_RAW, tonProofNetworks: ['-239'] })
    const who = await seller(t, 4)
    const canonical = friendly(USER_HASH, { bounceable: false, testnet: false })
    const typed = [USER_RAW, ` ${friendly(USER_HASH, { bounceable: true, testnet: false })} `, friendly(USER_HASH, { bounceable: true, testnet: false }).replace(/-/g, '+').replace(/_/g, '/'), canonical]
    for (const address of typed) {
      const r = await sell(t, who, address)
      expect([address, r.status, r.json.address]).toEqual([address, 200, canonical])
    }
    const history = (await who.call('GET', '/withdraw/history', { query: { size: 10 } })).body.items as Array<{ address: string }>
    expect(history.map((w) => w.address)).toEqual(Array(typed.length).fill(canonical))
    const ops = (await who.call('GET', '/operations/history', { query: { size: 10 } })).body.items as Array<{ type: string; description_params: { address?: string } }>
    expect(ops.filter((o) => o.type === 'withdraw').map((o) => o.description_params.address)).toEqual(Array(typed.length).fill(canonical))
  })

  it('testnet: test-flagged (0Q…)', async () => {
    const t = await start({ treasuryAddress: TREASURY_RAW, tonProofNetworks: ['-3'] })
    const who = await seller(t, 5)
    const r = await sell(t, who, USER_RAW)
    expect([r.status, r.json.address]).toEqual([200, friendly(USER_HASH, { bounceable: false, testnet: true })])
  })
})
