import { Duration, Effect } from 'effect'
import { type ChainReader, NetworkError } from '../../../core/index.ts'

/** Wallet balances the test can change; an address without one reads as a network error. */
export class FakeChainReader implements ChainReader {
  private readonly balances = new Map<string, bigint>()
  private readonly changes: Array<{ afterReads: number; address: string; balance: bigint }> = []
  reads = 0
  /** How long a read takes (on the Effect clock); the node answers with the balance at the end of it. */
  readMs = 0

  setBalance(address: string, balance: bigint): void {
    this.balances.set(address, balance)
  }

  /** The balance becomes `balance` once `afterReads` reads in total have been made. */
  changeAfterReads(afterReads: number, address: string, balance: bigint): void {
    this.changes.push({ afterReads, address, balance })
  }

  balance(address: string): Effect.Effect<bigint, NetworkError> {
    const read = Effect.suspend(() => {
      this.reads++
      for (const c of this.changes) if (this.reads > c.afterReads) this.balances.set(c.address, c.balance)
      const b = this.balances.get(address)
      return b === undefined ? Effect.fail(new NetworkError({ cause: 'node unreachable' })) : Effect.succeed(b)
    })
    return this.readMs > 0 ? Effect.sleep(Duration.millis(this.readMs)).pipe(Effect.andThen(read)) : read
  }
}
