import { type CorePorts, useCases } from '../../../core/index.ts'
import { FakeAxiomApi } from './fake-axiom-api.ts'
import { FakeChainReader } from './fake-chain-reader.ts'
import { FakePlatform } from './fake-platform.ts'
import { FakeSocketFactory } from './fake-socket-factory.ts'
import { FixedClock } from './fixed-clock.ts'
import { MemoryKeyValueStore, MemorySessionStore } from './memory-stores.ts'
import { RecordingNotifier } from './recording-notifier.ts'
import { ScriptedWallet } from './scripted-wallet.ts'

/** The core's use cases over in-memory fakes, with the ports a test names in place of its fakes. */
export const useCasesOver = (ports: Partial<CorePorts> = {}) =>
  useCases({
    api: new FakeAxiomApi(),
    sockets: new FakeSocketFactory(),
    session: new MemorySessionStore(),
    storage: new MemoryKeyValueStore(),
    clock: new FixedClock(1_700_000_000_000),
    platform: new FakePlatform(),
    notifier: new RecordingNotifier(),
    wallet: new ScriptedWallet(),
    chain: new FakeChainReader(),
    ...ports,
  })
