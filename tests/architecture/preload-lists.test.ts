import { describe, expect, it } from 'vitest'
import { withoutPreloaded } from '../../deploy/preload-lists.ts'

// A chunk as Vite writes it (hand-written after the build's output): the list on its own first
// line, then the code, whose dynamic imports name their files by index.
const chunk = [
  'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/a-1.js","assets/page-2.css","assets/b-3.js","assets/c-4.css"])))=>i.map(i=>d[i]);',
  'var x=1;const f=()=>e(()=>import(`./a-1.js`),__vite__mapDeps([0,1,2,3])),g=()=>e(()=>import(`./b-3.js`),__vite__mapDeps([1])),h=()=>e(()=>import(`./c.js`),__vite__mapDeps([3,2]));',
  'export{f,g,h};',
].join('\n')

describe("a preload list without the page's own stylesheets", () => {
  const out = withoutPreloaded(chunk, new Set(['assets/page-2.css']))
  const lines = out.split('\n')

  it('drops the file from the list, and each import names the files it named before, renumbered', () => {
    expect(lines[0]).toContain('m.f=["assets/a-1.js","assets/b-3.js","assets/c-4.css"]')
    const calls = [...lines[1]!.matchAll(/__vite__mapDeps\(\[([^\]]*)\]\)/g)].map((m) => m[1]!.trim())
    expect(calls).toEqual(['0,1,2', '', '2,1'])
  })

  it('moves no position on any line but the list’s, so the source map stays true', () => {
    expect(lines).toHaveLength(3)
    expect(lines[1]!.length).toBe(chunk.split('\n')[1]!.length)
    for (const marker of [',g=', ',h=', 'export']) expect(out.split('\n').slice(1).join('\n').indexOf(marker)).toBe(chunk.split('\n').slice(1).join('\n').indexOf(marker))
    expect(lines[2]).toBe('export{f,g,h};')
  })

  it('leaves a chunk without a list, or whose list names none of the files, as it was', () => {
    expect(withoutPreloaded('var x=1;', new Set(['assets/page-2.css']))).toBe('var x=1;')
    expect(withoutPreloaded(chunk, new Set(['assets/other.css']))).toBe(chunk)
  })
})
