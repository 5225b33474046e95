/** Plain-text tables for the terminal: columns padded to their widest cell, numbers right-aligned. */

export type Align = 'left' | 'right'

export interface Column<R> {
  readonly header: string
  readonly value: (row: R) => string
  readonly align?: Align
}

/** The display width of a string in a monospace terminal (ANSI escapes excluded). */
export const width = (text: string): number => [...text.replace(/\x1b\[[0-9;]*m/g, '')].length

const pad = (text: string, size: number, align: Align) => {
  const gap = ' '.repeat(Math.max(0, size - width(text)))
  return align === 'right' ? gap + text : text + gap
}

export const table = <R>(rows: ReadonlyArray<R>, columns: ReadonlyArray<Column<R>>, empty = '(none)'): string => {
  if (rows.length === 0) return `${empty}\n`
  const cells = rows.map((r) => columns.map((c) => c.value(r)))
  const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((row) => width(row[i] ?? ''))))
  const line = (values: ReadonlyArray<string>) =>
    values
      .map((v, i) => pad(v, widths[i] ?? 0, columns[i]?.align ?? 'left'))
      .join('  ')
      .trimEnd()
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n') + '\n'
}

/** A two-column "name  value" list. */
export const keyValues = (pairs: ReadonlyArray<readonly [string, string]>): string => {
  const size = Math.max(...pairs.map(([k]) => width(k)))
  return pairs.map(([k, v]) => `${pad(k, size, 'left')}  ${v}`).join('\n') + '\n'
}
