import { makeAutoObservable } from 'mobx'
import { type HapticKind, type Id, liveRecordNotice, type Mint, type Notifier, type Stake } from '../../../core/index.ts'

/** The toasts (and success haptic) of live bonds and stakes: each once, and a farming bond "via Farming". */
export class BondAnnouncements {
  /**
   * The farming success flag (spec §4 toast wording): set when an activation succeeded, and spent by
   * the announcement of the bond it brought.
   */
  viaFarming = false
  /** While an activation call is out: new active bonds wait for its answer to be announced. */
  private farmingCallOut = false
  private heldMints: Mint[] = []
  /** Ids of live records already announced: each bond or stake gets its toast once. */
  private readonly announced = new Set<string>()

  constructor(
    private readonly notifier: Notifier,
    private readonly haptic: (kind: HapticKind) => void,
  ) {
    makeAutoObservable<this, 'notifier' | 'haptic' | 'farmingCallOut' | 'heldMints' | 'announced'>(this, {
      notifier: false,
      haptic: false,
      farmingCallOut: false,
      heldMints: false,
      announced: false,
    })
  }

  /**
   * The server pushes the bond an activation brings while it answers: until the answer says whether
   * the activation succeeded, a new bond is not announced, so that it can say "via Farming".
   */
  mint(mint: Mint): void {
    if (this.farmingCallOut && liveRecordNotice('mint', mint.status, false)) this.heldMints.push(mint)
    else this.announceMint(mint)
  }

  stake(stake: Stake): void {
    const notice = liveRecordNotice('stake', stake.status, false)
    if (notice && this.firstAnnouncement('stake', stake.id)) this.tell(notice)
  }

  /** A farming activation call goes out: bonds that arrive meanwhile are announced once it answers. */
  expectFarmingBond(): void {
    this.farmingCallOut = true
  }

  /**
   * The activation has answered: the bonds held meanwhile are announced (a success sets the flag, so
   * they say "via Farming"). True when the flag is still unspent, its bond yet to be found.
   */
  release(activated: boolean): boolean {
    const held = this.heldMints
    this.heldMints = []
    this.farmingCallOut = false
    this.viaFarming = activated
    for (const mint of held) this.announceMint(mint)
    if (activated && this.viaFarming) return true
    this.viaFarming = false
    return false
  }

  /** Used or not (a repeated activation brings no new bond), the flag is spent (spec §4). */
  spendFlag(): void {
    this.viaFarming = false
  }

  private announceMint(mint: Mint): void {
    const notice = liveRecordNotice('mint', mint.status, this.viaFarming)
    if (notice && this.firstAnnouncement('mint', mint.id)) {
      if (this.viaFarming) this.viaFarming = false
      this.tell(notice)
    }
  }

  private tell(notice: NonNullable<ReturnType<typeof liveRecordNotice>>): void {
    this.notifier.notify(notice)
    this.haptic('success')
  }

  private firstAnnouncement(kind: 'mint' | 'stake', id: Id): boolean {
    const key = `${kind}:${id}`
    if (this.announced.has(key)) return false
    this.announced.add(key)
    return true
  }
}
