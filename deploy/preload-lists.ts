/**
 * Vite's preload lists, as it writes them into each chunk that imports another lazily: one array of
 * file names per chunk (`__vite__mapDeps`, first line: `…m.f=["assets/a.js","assets/b.css"]…`),
 * and at each dynamic import the indices of the files that import needs
 * (`__vite__mapDeps([0,1])`). Vite's preload helper looks each listed file up in the page on every
 * such import, and for a stylesheet the page already links that is all it does.
 */

/**
 * `code` with the files of `drop` taken out of its preload list, and each import's indices moved to
 * match. Each import's indices keep their length (padded with spaces inside the brackets), so no
 * position on a code line moves and the source map stays true; only the list's own line shortens.
 */
export const withoutPreloaded = (code: string, drop: ReadonlySet<string>): string => {
  const list = /m\.f=(\[[^\]]*\])/.exec(code)
  if (!list) return code
  const files = JSON.parse(list[1]!) as string[]
  if (!files.some((f) => drop.has(f))) return code
  const kept = files.filter((f) => !drop.has(f))
  const moved = files.map((f) => (drop.has(f) ? -1 : kept.indexOf(f)))
  const head = code.slice(0, list.index) + `m.f=${JSON.stringify(kept)}`
  const rest = code.slice(list.index + list[0].length)
  return (
    head +
    rest.replace(/__vite__mapDeps\(\[([\d,]*)\]\)/g, (_call, indices: string) => {
      const now = indices === '' ? [] : indices.split(',').map((i) => moved[Number(i)] ?? -1)
      const inner = now.filter((i) => i >= 0).join(',')
      return `__vite__mapDeps([${inner.padEnd(indices.length)}])`
    })
  )
}
