import { describe, expect, it } from 'vitest'
import { importCircles, importGraph } from './import-graph.ts'

const graph = importGraph()
const front = [...graph.keys()].filter((f) => /^(core|adapters|ui|cli)\/|^composition-root\.ts$/.test(f))

describe('the front end keeps its layers apart', () => {
  it('adapters/ never imports the composition root, ui/ or cli/', () => {
    const reaching = front
      .filter((f) => f.startsWith('adapters/'))
      .flatMap((f) => (graph.get(f) ?? []).filter((t) => /^(ui|cli)\/|^composition-root\.ts$/.test(t)).map((t) => `${f} → ${t}`))
    expect(reaching).toEqual([])
  })

  it('core, adapters, ui and the composition root have no import circle', () => {
    const circles = importCircles(graph).filter((c) => c.some((f) => front.includes(f)))
    expect(circles).toEqual([])
  })
})
