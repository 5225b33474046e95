import { type Mint, mergeLiveRecord, type Stake } from '../../../core/index.ts'
import type { BondAnnouncements } from './bond-announcements.ts'

type LiveKind = 'mint' | 'stake'

/**
 * List fetches in flight, and the live records that arrived while any was out. A list fetched while
 * live records arrived was read before some of them: those records are merged again over the
 * answer, so that a refetch never takes back what the socket told. Plain bookkeeping, not observed.
 */
export class LiveMerge {
  private fetchesOut = 0
  private log: Array<{ readonly kind: LiveKind; readonly record: Mint | Stake }> = []

  /** A fetch goes out: answers the mark its answer is merged from. */
  begin(): number {
    this.fetchesOut++
    return this.log.length
  }

  end(): void {
    if (--this.fetchesOut === 0) this.log = []
  }

  /** `list` (read since `mark`) with the live records of `kind` that arrived meanwhile merged over it. */
  over<R extends Mint | Stake>(mark: number, kind: LiveKind, list: R[]): R[] {
    const live = this.log.slice(mark).filter((e) => e.kind === kind)
    if (!live.length) return list
    return live.reduce((merged, e) => mergeLiveRecord(merged, e.record as R), list)
  }

  /** A live record arrived: kept only while a fetch is out. */
  record(kind: LiveKind, record: Mint | Stake): void {
    if (this.fetchesOut > 0) this.log.push({ kind, record })
  }
}

/** What the bond and stake lists share about live records: the merge log, the toasts, and the figures' refresh. */
export interface LiveRecords {
  readonly merge: LiveMerge
  readonly announcements: BondAnnouncements
  /** The user's own bond or stake went live, or a stake or cancel went through: the platform's figures moved. */
  readonly onFiguresMoved: () => void
}
