import type { Effect } from 'effect'
import { makeAutoObservable, runInAction } from 'mobx'
import {
  type ApiError,
  type AppError,
  type BondQuote,
  type CreateOptions,
  type FarmingActivation,
  type FarmingLink,
  type FarmingLinkRequest,
  type FarmingPlan,
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
  readonly quoteFarming: (amount: number, days: number) => Effect.Effect<BondQuote | null, ApiError>
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
  source: FundingSource = 'referral'
  plans: ReadonlyArray<FarmingPlan> = []
  links: ReadonlyArray<FarmingLink> = []
  quote: BondQuote | null = null
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
    makeAutoObservable<this, 'uc' | 'feedback' | 'farmingBond'>(this, { uc: false, feedback: false, farmingBond: false })
  }

  async refresh(): Promise<void> {
    const [plans, links] = await Promise.all([
      runResult(this.uc.loadFarmingPlans(this.source)),
      runResult(this.uc.loadFarmingLinks()),
    ])
    runInAction(() => {
      if (plans._tag === 'Success') this.plans = plans.success
      if (links._tag === 'Success') this.links = links.success
    })
  }

  async chooseSource(source: FundingSource): Promise<void> {
    this.source = source
    const plans = await runResult(this.uc.loadFarmingPlans(source))
    runInAction(() => {
      if (plans._tag === 'Success') this.plans = plans.success
    })
  }

  async preview(amount: number, days: number): Promise<void> {
    const r = await runResult(this.uc.quoteFarming(amount, days))
    runInAction(() => (this.quote = r._tag === 'Success' ? r.success : null))
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
