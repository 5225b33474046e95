import { makeAutoObservable, runInAction } from 'mobx'
import { MAINTENANCE_POLL_MS, type Platform, type UseCases } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'

/**
 * Maintenance (spec §4): polled every 10 s, and entered at once when a call finds the backend under
 * maintenance; the page reloads when it ends.
 */
export class MaintenanceState {
  underMaintenance = false
  private timer: ReturnType<typeof setInterval> | null = null

  constructor(
    private readonly uc: Pick<UseCases, 'checkMaintenance'>,
    private readonly platform: Pick<Platform, 'reload'>,
    private readonly pollMs = MAINTENANCE_POLL_MS,
  ) {
    makeAutoObservable<this, 'uc' | 'platform' | 'timer' | 'pollMs'>(this, { uc: false, platform: false, timer: false, pollMs: false })
  }

  async check(): Promise<boolean> {
    const r = await runResult(this.uc.checkMaintenance())
    const now = r._tag === 'Success' ? r.success : null
    const was = this.underMaintenance
    runInAction(() => {
      if (now !== null) this.underMaintenance = now
    })
    if (was && now === false) this.platform.reload()
    return this.underMaintenance
  }

  /** A call was answered 'We are under maintenance': the maintenance page shows until the poll sees it end. */
  enter(): void {
    this.underMaintenance = true
  }

  startPolling(): void {
    this.timer ??= setInterval(() => void this.check(), this.pollMs)
  }

  stopPolling(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}
