import { makeAutoObservable, runInAction } from 'mobx'
import { Submission } from '../../../core/index.ts'
import type {
  FarmingActivation,
  FarmingLink,
  FarmingLinkRequest,
  FarmingPlan,
  FarmingQuote,
  FundingSource,
  FarmingLinkId,
  Id,
  UseCases,
} from '../../../core/index.ts'
import { refusalOf, runResult } from '../../state/run-effect.ts'
import type { BondsState } from '../bonds/bonds-state.ts'

/** What the farming view model calls. */
export type FarmingUseCases = Pick<
  UseCases,
  'loadFarmingPlans' | 'loadFarmingLinks' | 'quoteFarming' | 'createFarmingLink' | 'cancelFarmingLink' | 'checkFarmCode'
>

/**
 * What an activation tells the bonds (spec §4: the farming flag): before the call, a bond that comes
 * live meanwhile waits for the answer; after it, whether the activation succeeded, which alone sets the flag.
 */
export type FarmingBonds = Pick<BondsState, 'expectFarmingBond' | 'settleFarmingBond'>

/** Farming (re-bonding) links: plans, create, list, cancel, and the activation of a code. */
export class FarmingState {
  /** The balance links are paid from: set by the screen's route (dashboard main, referral, tasks). */
  source: FundingSource = 'main'
  plans: ReadonlyArray<FarmingPlan> = []
  links: ReadonlyArray<FarmingLink> = []
  quote: FarmingQuote | null = null
  /** The server's refusal of the input in `quoteKey` ("amount must be at least 1"), shown in place. */
  quoteRefusal: string | null = null
  /** The source, amount and days `quote` (or `quoteRefusal`) was computed for. */
  quoteKey: string | null = null
  private previewSeq = 0
  private plansSeq = 0
  /** The link form: a tap again after no answer reuses the key (`Submission`). */
  private readonly linkForm = new Submission()
  /** The activation modal's content, shown until dismissed. */
  activation: FarmingActivation | null = null
  isSaving = false
  lastCreated: FarmingLink | null = null
  busyIds = new Set<Id>()

  constructor(
    private readonly uc: FarmingUseCases,
    private readonly bonds: FarmingBonds,
  ) {
    makeAutoObservable<this, 'uc' | 'bonds' | 'previewSeq' | 'plansSeq' | 'linkForm'>(this, {
      linkForm: false,
      uc: false,
      bonds: false,
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
      this.quoteRefusal = null
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
      this.quoteRefusal = refusalOf(r)
      this.quoteKey = key
    })
  }

  /** The server's refusal to quote exactly this amount and term from the current source, or null. */
  refusalFor(amount: number | null, days: number | null): string | null {
    return amount !== null && days !== null && this.quoteKey === `${this.source}:${amount}:${days}` ? this.quoteRefusal : null
  }

  /** The quote for exactly this amount and term from the current source, or null while it is computed. */
  quoteFor(amount: number | null, days: number | null): FarmingQuote | null {
    return amount !== null && days !== null && this.quoteKey === `${this.source}:${amount}:${days}` ? this.quote : null
  }

  /** Creates a link; a second press while one is in flight does nothing. */
  async create(request: Omit<FarmingLinkRequest, 'source'>): Promise<FarmingLink | null> {
    if (this.isSaving) return null
    this.isSaving = true
    const full = { ...request, source: this.source }
    const r = await runResult(this.linkForm.send(full, (idempotencyKey) => this.uc.createFarmingLink(full, { idempotencyKey })))
    runInAction(() => {
      this.isSaving = false
      if (r._tag === 'Success') {
        this.lastCreated = r.success
        this.links = [r.success, ...this.links.filter((l) => l.id !== r.success.id)]
      }
    })
    if (r._tag === 'Success') void this.chooseSource(this.source)
    return r._tag === 'Success' ? r.success : null
  }

  async cancel(id: FarmingLinkId): Promise<void> {
    const key = id
    if (this.busyIds.has(key)) return
    this.busyIds.add(key)
    const r = await runResult(this.uc.cancelFarmingLink(id))
    runInAction(() => {
      this.busyIds.delete(key)
      if (r._tag === 'Success') this.links = this.links.map((l) => (l.id === key ? r.success : l))
    })
  }

  /** Checks a farm code from the start page, once per code (spec §4), and shows the outcome. */
  async activate(code: string): Promise<FarmingActivation | null> {
    // The server pushes the new bond while it answers: the bonds hold what comes live until the answer.
    this.bonds.expectFarmingBond()
    const r = await runResult(this.uc.checkFarmCode(code))
    const result = r._tag === 'Success' ? r.success : null
    if (result) runInAction(() => (this.activation = result))
    await this.bonds.settleFarmingBond(result?.status === 'ACTIVE')
    return result
  }

  /** Activates one of the user's own "for me" links from inside the app; the list then shows it used. */
  async activateOwn(link: FarmingLink): Promise<void> {
    if (this.busyIds.has(link.id)) return
    this.busyIds.add(link.id)
    await this.activate(link.activation_code)
    const links = await runResult(this.uc.loadFarmingLinks())
    runInAction(() => {
      this.busyIds.delete(link.id)
      if (links._tag === 'Success') this.links = links.success
    })
  }

  dismissActivation(): void {
    this.activation = null
  }


}
