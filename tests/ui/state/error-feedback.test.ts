import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Effect } from 'effect'
import { InvalidInput, NetworkError, noticeText, withErrorPolicy } from '../../../core/index.ts'
import { ErrorFeedback } from '../../../ui/state/error-feedback.ts'
import { ToastQueue } from '../../../ui/state/toast-queue.ts'
import { FakePlatform } from '../../core/fakes/fake-platform.ts'
import { filesUnder } from '../../support/source-imports.ts'

const over = () => {
  const timers: number[] = []
  const toasts = new ToastQueue({ setTimeout: (_fn, ms) => timers.push(ms) })
  const platform = new FakePlatform()
  return { errors: new ErrorFeedback(toasts, platform), toasts, platform, timers }
}

describe('ErrorFeedback: every error the UI shows gives the error haptic (spec §8)', () => {
  it("an error in the UI's own words (a refused clipboard): a 3 s error toast and the error haptic", () => {
    const h = over()
    h.errors.tell({ tag: 'copyFailed' })
    expect(h.toasts.toasts.map((t) => [t.kind, noticeText(t.notice)])).toEqual([['error', 'Could not copy. Select the text and copy it by hand.']])
    expect(h.timers).toEqual([3_000])
    expect(h.platform.haptics).toEqual(['error'])
  })

  it('an error shown beside its field (a file that is not an image): the haptic, and no toast over it', () => {
    const h = over()
    h.errors.inPlace()
    expect(h.toasts.toasts).toEqual([])
    expect(h.platform.haptics).toEqual(['error'])
  })

  it("a use case's failure, of any kind, is reported once with the haptic by the error policy", async () => {
    const h = over()
    const uc = withErrorPolicy(
      {
        sell: () => Effect.fail(new InvalidInput({ field: 'address', msg: 'Enter a valid TON address' })),
        load: () => Effect.fail(new NetworkError({})),
      },
      { notifier: h.toasts, platform: h.platform },
      {},
    )
    await Effect.runPromise(Effect.result(uc.sell()))
    await Effect.runPromise(Effect.result(uc.load()))
    expect(h.toasts.toasts.map((t) => noticeText(t.notice))).toEqual(['Error: Enter a valid TON address', 'Error: Network Error! Code: ERR_NETWORK'])
    expect(h.platform.haptics).toEqual(['error', 'error'])
  })
})

describe('no error reaches the user around that path', () => {
  const UI = join(import.meta.dirname, '../../../ui')
  const files = filesUnder(UI).map((f) => [relative(UI, f), readFileSync(f, 'utf8')] as const)

  it.each(files)("%s shows no error toast and no error haptic of its own", (_name, source) => {
    expect(source).not.toMatch(/notify\(\{\s*tag:\s*'(error|copyFailed)'/)
    expect(source).not.toMatch(/haptic\(\s*'error'\s*\)/)
  })
})
