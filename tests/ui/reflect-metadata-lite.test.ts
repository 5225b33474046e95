// The package first: it installs its API on Reflect, and the app's version (imported second) keeps
// what it finds there, so `Reflect` below is the package's and `reflectMetadataApi()` the app's.
import 'reflect-metadata/lite'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reflectMetadataApi } from '../../ui/lib/reflect-metadata-lite.ts'

type Api = ReturnType<typeof reflectMetadataApi>
const pkg = Reflect as unknown as Api

/** Objects of every shape inversify's metadata meets: classes and their subclasses, ES5 classes, plain objects and their heirs. */
const targets = (): object[] => {
  class A {}
  class B extends A {}
  class C extends B {}
  // An ES5 class: its prototype inherits, the constructor's [[Prototype]] is left as Function.prototype.
  function E() {}
  function F() {}
  F.prototype = Object.create(E.prototype as object) as object
  ;(F.prototype as { constructor: unknown }).constructor = F
  // Its prototype's constructor is itself: no heritage to find.
  function G() {}
  G.prototype = Object.create({ constructor: G }) as object
  const o = {}
  const heir = Object.create(o) as object
  return [A, B, C, A.prototype, B.prototype, E, F, G, o, heir, Object.create(null) as object]
}
const metadataKeys: unknown[] = ['design:paramtypes', 'inversify:k', Symbol.for('axiom.k'), 7]
const propertyKeys: Array<string | symbol | undefined> = [undefined, 'x', Symbol.for('axiom.p')]

const op = fc.record({
  kind: fc.constantFrom('define', 'delete', 'metadata'),
  key: fc.nat(metadataKeys.length - 1),
  target: fc.nat(10),
  property: fc.nat(propertyKeys.length - 1),
  value: fc.oneof(fc.integer(), fc.constant(undefined), fc.string()),
})

/** Everything the API answers about a set of targets. */
const read = (api: Api, all: object[]) =>
  all.flatMap((t) =>
    propertyKeys.flatMap((p) => [
      api.getMetadataKeys(t, p),
      api.getOwnMetadataKeys(t, p),
      ...metadataKeys.flatMap((k) => [api.getMetadata(k, t, p), api.getOwnMetadata(k, t, p), api.hasMetadata(k, t, p), api.hasOwnMetadata(k, t, p)]),
    ]),
  )

type Op = { kind: string; key: number; target: number; property: number; value: unknown }
const run = (api: Api, all: object[], ops: Op[]) =>
  ops.map(({ kind, key, target, property, value }) => {
    const [k, t, p] = [metadataKeys[key], all[target]!, propertyKeys[property]]
    if (kind === 'define') return api.defineMetadata(k, value, t, p)
    if (kind === 'metadata') return api.metadata(k, value)(t, p)
    return api.deleteMetadata(k, t, p)
  })

describe('the Reflect metadata API of the app build (ui/lib/reflect-metadata-lite.ts) answers as reflect-metadata/lite', () => {
  it('law: after any writes and deletes, every read and inherited read is the same', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const [ours, theirs] = [targets(), targets()]
        const api = reflectMetadataApi()
        expect(run(api, ours, ops)).toEqual(run(pkg, theirs, ops))
        expect(read(api, ours)).toEqual(read(pkg, theirs))
      }),
      { numRuns: 300 },
    )
  })

  it('inherits a class’s metadata through its superclass, an ES5 class’s included', () => {
    const api = reflectMetadataApi()
    const [A, B, C, , , E, F, G] = targets()
    api.defineMetadata('k', 1, A!)
    api.defineMetadata('k', 2, E!)
    api.defineMetadata('k', 3, (G as { prototype: object }).prototype)
    expect([api.getMetadata('k', C!), api.getOwnMetadata('k', B!), api.getMetadata('k', F!), api.getMetadata('k', G!)]).toEqual([1, undefined, 2, undefined])
  })

  it('applies decorators last first, and takes a constructor or descriptor a decorator returns', () => {
    const outcome = (api: Api) => {
      const calls: string[] = []
      class Base {}
      class Replaced extends Base {}
      const ctor = api.decorate([(t) => void calls.push(`outer:${(t as { name: string }).name}`), () => Replaced, api.metadata('m', 1) as never], Base)
      const target = {}
      const descriptor = api.decorate(
        [(_t, p, d) => void calls.push(`p:${String(p)}:${JSON.stringify(d)}`), () => ({ value: 2, enumerable: true }), () => undefined],
        target,
        'p',
        { value: 1 },
      )
      const withNull = api.decorate([(_t, _p, d) => void calls.push(`null:${String(d)}`)], target, 'q', null)
      return { calls, replaced: ctor === Replaced, meta: api.getOwnMetadata('m', Base), descriptor, withNull }
    }
    expect(outcome(reflectMetadataApi())).toEqual(outcome(pkg))
  })

  it('refuses what is not an object, as the package does', () => {
    const api = reflectMetadataApi()
    for (const bad of [undefined, null, 1, 'text']) {
      expect(() => pkg.defineMetadata('k', 1, bad)).toThrow(TypeError)
      expect(() => api.defineMetadata('k', 1, bad)).toThrow(TypeError)
      expect(() => pkg.getMetadata('k', bad)).toThrow(TypeError)
      expect(() => api.getMetadata('k', bad)).toThrow(TypeError)
    }
    expect(() => pkg.decorate([], {} as never)).toThrow(TypeError)
    expect(() => api.decorate([], {} as never)).toThrow(TypeError)
    expect(() => api.decorate([() => 1 as never], class {})).toThrow(TypeError)
    expect(() => pkg.decorate([() => 1 as never], class {})).toThrow(TypeError)
  })
})
