import type { Effect } from 'effect'
import { makeAutoObservable, runInAction } from 'mobx'
import {
  type ApiError,
  type AppError,
  type CreateOptions,
  type FarmingActivation,
  type FarmingLink,
  type FarmingLinkRequest,
  type FarmingPlan,
  type FarmingQuote,
  type FundingSource,
  type Id,
  type InvalidInput,
  type Feedback,
  reportUnlessReported,
} from '../../core/index.ts'
import { newIdempotencyKey, runResult } from './run-effect.ts'

export interface FarmingUseCases {
  readonly loadFarmingPlans: (source: FundingSource) => Effect.Effect<ReadonlyArray<FarmingPlan>, ApiError>
  readonly loadFarmingLinks: () => Effect.Effect<ReadonlyArray<FarmingLink>, ApiError>
  readonly quoteFarming: (amount: number, days: number, source: FundingSource) => Effect.Effect<FarmingQuote | null, ApiError>
  readonly createFarmingLink: (r: FarmingLinkRequest, options?: CreateOptions) => Effect.Effect<FarmingLink, ApiError | InvalidInput>
  readonly cancelFarmingLink: (id: Id) => Effect.Effect<FarmingLink, ApiError>
  readonly checkFarmCode: (code: string) => Effect.Effect<FarmingActivation | null, ApiError>
}

/** How an activation tells the bonds that a bond may be on its way (spec §4: the farming flag). */
export interface FarmingBondHooks {
  /** Before the activation call: a bond that comes live meanwhile waits for the answer. */
  expect(): void
  /** After it: whether the activation succeeded, which alone sets the farming flag. */
  settle(activated: boolean): Promise<void>
}

/** Farming (re-bonding) links: plans, create, list, cancel, and the activation of a code. */
export class FarmingState {
  /** The balance links are paid from: set by the screen's route (dashboard main, referral, tasks). */
  source: FundingSource = 'main'
  plans: ReadonlyArray<FarmingPlan> = []
  links: ReadonlyArray<FarmingLink> = []
  quote: FarmingQuote | null = null
  /** The source, amount and days `quote` was computed for. */
  quoteKey: string | null = null
  private previewSeq = 0
  private plansSeq = 0
  /** The activation modal's content, shown until dismissed. */
  activation: FarmingActivation | null = null
  isCreating = false
  lastCreated: FarmingLink | null = null
  busyIds = new Set<string>()

  constructor(
    private readonly uc: FarmingUseCases,
    private readonly feedback: Feedback,
    private readonly farmingBond: FarmingBondHooks = { expect: () => {}, settle: async () => {} },
  ) {
    makeAutoObservable<this, 'uc' | 'feedback' | 'farmingBond' | 'previewSeq' | 'plansSeq'>(this, {
      uc: false,
      feedback: false,
      farmingBond: false,
      previewSeq: false,
      plansSeq: false,
    })
  }

  async refresh(): Promise<void> {
    const [, links] = await Promise.all([this.loadPlans(), runResult(this.uc.loadFarmingLinks())])
    runInAction(() => {
      if (links._tag === 'Success') this.links = links.success
    })
  }

  /** Links are paid from `source` from now on; plans of a source left meanwhile are dropped. */
  async chooseSource(source: FundingSource): Promise<void> {
    if (source !== this.source) {
      this.source = source
      this.quote = null
      this.quoteKey = null
    }
    await this.loadPlans()
  }

  private async loadPlans(): Promise<void> {
    const seq = ++this.plansSeq
    const plans = await runResult(this.uc.loadFarmingPlans(this.source))
    runInAction(() => {
      if (seq === this.plansSeq && plans._tag === 'Success') this.plans = plans.success
    })
  }

  /** Quotes a link's bond from the current source; an answer that arrives after a newer request is dropped. */
  async preview(amount: number, days: number): Promise<void> {
    const seq = ++this.previewSeq
    const key = `${this.source}:${amount}:${days}`
    const r = await runResult(this.uc.quoteFarming(amount, days, this.source))
    runInAction(() => {
      if (seq !== this.previewSeq) return
      this.quote = r._tag === 'Success' ? r.success : null
      this.quoteKey = key
    })
  }

  /** The quote for exactly this amount and term from the current source, or null while it is computed. */
  quoteFor(amount: number | null, days: number | null): FarmingQuote | null {
    return amount !== null && days !== null && this.quoteKey === `${this.source}:${amount}:${days}` ? this.quote : null
  }

  /** Creates a link; a second press while one is in flight does nothing. */
  async create(request: Omit<FarmingLinkRequest, 'source'>): Promise<FarmingLink | null> {
    if (this.isCreating) return null
    this.isCreating = true
    const r = await runResult(this.uc.createFarmingLink({ ...request, source: this.source }, { idempotencyKey: newIdempotencyKey() }))
    runInAction(() => {
      this.isCreating = false
      if (r._tag === 'Success') {
        this.lastCreated = r.success
        this.links = [r.success, ...this.links.filter((l) => String(l.id) !== String(r.success.id))]
      } else this.report(r.failure)
    })
    if (r._tag === 'Success') void this.chooseSource(this.source)
    return r._tag === 'Success' ? r.success : null
  }

  async cancel(id: Id): Promise<void> {
    const key = String(id)
    if (this.busyIds.has(key)) return
    this.busyIds.add(key)
    const r = await runResult(this.uc.cancelFarmingLink(id))
    runInAction(() => {
      this.busyIds.delete(key)
      if (r._tag === 'Success') this.links = this.links.map((l) => (String(l.id) === key ? r.success : l))
    })
  }

  /** Checks a farm code from the start page, once per code (spec §4), and shows the outcome. */
  async activate(code: string): Promise<FarmingActivation | null> {
    // The server pushes the new bond while it answers: the bonds hold what comes live until the answer.
    this.farmingBond.expect()
    const r = await runResult(this.uc.checkFarmCode(code))
    const result = r._tag === 'Success' ? r.success : null
    if (result) runInAction(() => (this.activation = result))
    await this.farmingBond.settle(result?.status === 'ACTIVE')
    return result
  }

  dismissActivation(): void {
    this.activation = null
  }

  private report(e: AppError): void {
    reportUnlessReported(this.feedback)(e)
  }
}
