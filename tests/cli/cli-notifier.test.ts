import { describe, expect, it } from 'vitest'
import { CliNotifier } from '../../cli/cli-notifier.ts'

describe('CliNotifier', () => {
  it('writes each notice as one marked line, in English', () => {
    const lines: string[] = []
    const notifier = new CliNotifier({ write: (text: string) => lines.push(text) })
    notifier.line('error', 'Error: Network Error! Code: ERR_NETWORK')
    notifier.line('success', 'New Bond created')
    notifier.line('info', 'Transaction is being\nprocessed')
    notifier.notify({ tag: 'transactionProcessing' })
    expect(lines.slice(0, 3)).toEqual([
      '✗ Error: Network Error! Code: ERR_NETWORK\n',
      '✓ New Bond created\n',
      '· Transaction is being processed\n',
    ])
    expect(lines[3]).toMatch(/^· Transaction is being processed\n$/)
  })
})
