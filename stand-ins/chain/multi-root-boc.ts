import { BitBuilder, type BitString, type Cell } from '@ton/core'

/**
 * A bag of cells with several roots, as the TON v4 API's `/account/:address/tx/:lt/:hash` answers
 * (one root per transaction; TonClient4 reads it with Cell.fromBoc). @ton/core serialises one root
 * only. Cells shared between roots are written once; every cell comes before the cells it refers to.
 */
export const multiRootBoc = (roots: ReadonlyArray<Cell>): Buffer => {
  const order: Cell[] = []
  const seen = new Set<string>()
  const visit = (c: Cell) => {
    const h = c.hash().toString('hex')
    if (seen.has(h)) return
    seen.add(h)
    for (const r of c.refs) visit(r)
    order.push(c)
  }
  for (const r of roots) visit(r)
  order.reverse()
  const index = new Map(order.map((c, i) => [c.hash().toString('hex'), i]))
  const cellsNum = order.length
  const sizeBytes = Math.max(1, Math.ceil(Math.log2(cellsNum + 1) / 8))
  const cellSize = (c: Cell) => 2 + Math.ceil(c.bits.length / 8) + c.refs.length * sizeBytes
  const totalCellSize = order.reduce((s, c) => s + cellSize(c), 0)
  const offsetBytes = Math.max(1, Math.ceil(Math.log2(totalCellSize + 1) / 8))
  const total = 4 + 1 + 1 + 3 * sizeBytes + offsetBytes + roots.length * sizeBytes + totalCellSize
  const b = new BitBuilder(total * 8)
  b.writeUint(0xb5ee9c72, 32)
  b.writeBit(false) // no index
  b.writeBit(false) // no crc32c
  b.writeBit(false) // no cache bits
  b.writeUint(0, 2)
  b.writeUint(sizeBytes, 3)
  b.writeUint(offsetBytes, 8)
  b.writeUint(cellsNum, sizeBytes * 8)
  b.writeUint(roots.length, sizeBytes * 8)
  b.writeUint(0, sizeBytes * 8) // absent
  b.writeUint(totalCellSize, offsetBytes * 8)
  for (const r of roots) b.writeUint(index.get(r.hash().toString('hex'))!, sizeBytes * 8)
  for (const c of order) {
    b.writeUint(c.refs.length + (c.isExotic ? 8 : 0) + c.mask.value * 32, 8)
    b.writeUint(Math.ceil(c.bits.length / 8) + Math.floor(c.bits.length / 8), 8)
    writePadded(b, c.bits)
    for (const r of c.refs) b.writeUint(index.get(r.hash().toString('hex'))!, sizeBytes * 8)
  }
  return b.buffer()
}

/** The cell's bits, completed to a byte by a 1 and zeros when they do not fill one. */
const writePadded = (b: BitBuilder, bits: BitString) => {
  b.writeBits(bits)
  const rest = bits.length % 8
  if (rest === 0) return
  b.writeBit(true)
  for (let i = rest + 1; i < 8; i++) b.writeBit(false)
}
