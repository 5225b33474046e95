import type { Effect } from 'effect'
import { makeAutoObservable, runInAction } from 'mobx'
import { type ApiError, type Operation, type Page, pageCount, type UseCases, type Withdrawal } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'

/** What the history view model calls. */
export type HistoryUseCases = Pick<UseCases, 'loadOperationsHistory' | 'loadWithdrawHistory'>

/** One paged list (10 a page, spec §7), with its total. */
export class PagedList<T> {
  items: ReadonlyArray<T> = []
  total = 0
  page = 1
  isFetching = false
  /** A page has been shown: the list is on the user's screen or was, and stays fresh. */
  loaded = false
  private seq = 0

  constructor(private readonly load: (page: number) => Effect.Effect<Page<T>, ApiError>) {
    makeAutoObservable<this, 'load' | 'seq'>(this, { load: false, seq: false })
  }

  get pages(): number {
    return pageCount(this.total)
  }

  get hasNext(): boolean {
    return this.page < this.pages
  }

  get hasPrevious(): boolean {
    return this.page > 1
  }

  next(): Promise<void> {
    return this.goTo(this.page + 1)
  }

  previous(): Promise<void> {
    return this.goTo(this.page - 1)
  }

  async goTo(page: number): Promise<void> {
    const target = Math.min(Math.max(1, page), Math.max(1, this.pages))
    const seq = ++this.seq
    this.isFetching = true
    const r = await runResult(this.load(target))
    runInAction(() => {
      // A page asked for after this one wins, whatever order the answers come in.
      if (seq !== this.seq) return
      this.isFetching = false
      if (r._tag === 'Success') {
        this.items = r.success.items
        this.total = r.success.total
        this.page = target
        this.loaded = true
      }
    })
  }
}

/** The operations history and the withdraw history. */
export class HistoryState {
  readonly operations: PagedList<Operation>
  readonly withdrawals: PagedList<Withdrawal>

  constructor(uc: HistoryUseCases) {
    this.operations = new PagedList(uc.loadOperationsHistory)
    this.withdrawals = new PagedList(uc.loadWithdrawHistory)
  }

  async refresh(): Promise<void> {
    await Promise.all([this.operations.goTo(1), this.withdrawals.goTo(1)])
  }

  /**
   * With the rest of the user's data (back in view after 10 s, spec §4; a socket back after a drop):
   * the lists the user has opened, at the page they are on. Never opened, nothing is asked.
   */
  async refetchShown(): Promise<void> {
    await Promise.all([this.operations, this.withdrawals].filter((l) => l.loaded).map((l) => l.goTo(l.page)))
  }
}
