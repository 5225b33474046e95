import { BackgroundReads, noticeText, useCases, withErrorPolicy } from '../../../core/index.ts'
import { BondQuoteState } from '../../../ui/features/bonds/bond-quote-state.ts'
import { BondsState } from '../../../ui/features/bonds/bonds-state.ts'
import { StakeQuoteState } from '../../../ui/features/bonds/stake-quote-state.ts'
import { SecondTicker } from '../../../ui/state/second-ticker.ts'
import { ToastQueue } from '../../../ui/state/toast-queue.ts'
import { FakeAxiomApi } from '../../core/fakes/fake-axiom-api.ts'
import { FakeChainReader } from '../../core/fakes/fake-chain-reader.ts'
import { FakePlatform } from '../../core/fakes/fake-platform.ts'
import { FakeSocketFactory } from '../../core/fakes/fake-socket-factory.ts'
import { FixedClock } from '../../core/fakes/fixed-clock.ts'
import { MemoryKeyValueStore, MemorySessionStore } from '../../core/fakes/memory-stores.ts'
import { ACCOUNT, ScriptedWallet } from '../../core/fakes/scripted-wallet.ts'

/** The app's use cases over in-memory fakes, with the §8 error policy, as the composition root binds them. */
export const stateHarness = (nowMs = 1_700_000_100_000) => {
  const api = new FakeAxiomApi()
  const clock = new FixedClock(nowMs)
  const storage = new MemoryKeyValueStore()
  const session = new MemorySessionStore()
  const platform = new FakePlatform()
  const toasts = new ToastQueue({ setTimeout: () => 0 })
  const wallet = new ScriptedWallet()
  const chain = new FakeChainReader()
  const sockets = new FakeSocketFactory()
  chain.setBalance(ACCOUNT.address, 5_000_000_000n)
  const copied: string[] = []
  const clipboard = { writeText: async (text: string) => (copied.push(text), true) }
  const ports = { api, clock, storage, platform, session, notifier: toasts, wallet, chain, sockets, clipboard }
  const background = new BackgroundReads()
  const uc = withErrorPolicy(useCases(ports), { notifier: toasts, platform, background })
  const ticker = new SecondTicker(clock)
  const bonds = () => new BondsState(uc, ticker, toasts, (k) => platform.haptic(k))
  return { api, clock, storage, session, platform, toasts, wallet, chain, sockets, copied, ports, uc, ticker, bonds, background }
}

/** The toasts on screen, in English. */
export const toastTexts = (h: ReturnType<typeof stateHarness>) => h.toasts.toasts.map((t) => noticeText(t.notice))

/** The bond form's quote, made as its screen makes it (ui/features/bonds/bond-screen.tsx). */
export const bondQuotesOf = (bonds: BondsState) => new BondQuoteState(bonds)
/** The stake form's quote, made as its screen makes it (ui/features/bonds/select-mint-screen.tsx). */
export const stakeQuotesOf = (bonds: BondsState) => new StakeQuoteState(bonds, (id) => bonds.bondList.isBusy(id))
