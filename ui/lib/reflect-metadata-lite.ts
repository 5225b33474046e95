/**
 * The Reflect metadata API (rbuckton's proposal, as the `reflect-metadata` package installs it) over
 * the browser's own WeakMap and Map: what inversify's container needs in the app's build, in place of
 * `reflect-metadata/lite` (vite.config.ts aliases it here). The package's "lite" entry still carries
 * a registry shared between copies of the package and its providers (2.0 KiB gzip on the path to the
 * dashboard); this is the same behaviour in a tenth of it.
 *
 * Metadata lives per object and property key (`undefined` for the object itself); `getMetadata`,
 * `hasMetadata` and `getMetadataKeys` also read the prototype chain, and a class inherits from its
 * superclass, as in the package (an ES5-style class whose constructor's [[Prototype]] was never set
 * included). Functions already on `Reflect` (another copy of the API) are kept, so what they hold
 * stays readable. tests/ui/reflect-metadata-lite.test.ts runs the same operations on this and on the
 * package.
 */
type Key = string | symbol | undefined
type Target = object
type Decorator = (target: Target, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => unknown

const functionPrototype = Object.getPrototypeOf(Function) as object

/** The object whose metadata a target inherits: its [[Prototype]], or an ES5 class's superclass. */
const parentOf = (o: Target): Target | null => {
  const proto = Object.getPrototypeOf(o) as Target | null
  if (typeof o !== 'function' || o === functionPrototype || proto !== functionPrototype) return proto
  const prototype = (o as { prototype?: unknown }).prototype
  const prototypeProto = prototype ? (Object.getPrototypeOf(prototype) as { constructor?: unknown } | null) : null
  if (prototypeProto == null || prototypeProto === Object.prototype) return proto
  const ctor = prototypeProto.constructor
  return typeof ctor !== 'function' || ctor === o ? proto : (ctor as Target)
}

const check = (target: unknown): Target => {
  if ((typeof target !== 'object' || target === null) && typeof target !== 'function') throw new TypeError('not an object')
  return target as Target
}

const decorate = (decorators: Decorator[], target: Target, propertyKey?: Key, attributes?: PropertyDescriptor | null): unknown => {
  if (!Array.isArray(decorators)) throw new TypeError('decorators is not an array')
  if (propertyKey === undefined) {
    if (typeof target !== 'function') throw new TypeError('not a constructor')
    let decorated: Target = target
    for (let i = decorators.length - 1; i >= 0; i--) {
      const next = decorators[i]!(decorated)
      if (next !== undefined && next !== null) {
        if (typeof next !== 'function') throw new TypeError('a decorator returned no constructor')
        decorated = next
      }
    }
    return decorated
  }
  check(target)
  if (attributes !== undefined && attributes !== null && typeof attributes !== 'object') throw new TypeError('not a descriptor')
  let descriptor = attributes === null ? undefined : attributes
  for (let i = decorators.length - 1; i >= 0; i--) {
    const next = decorators[i]!(target, propertyKey, descriptor)
    if (next !== undefined && next !== null) {
      if (typeof next !== 'object') throw new TypeError('a decorator returned no descriptor')
      descriptor = next as PropertyDescriptor
    }
  }
  return descriptor
}

/** The API over a store of its own (the module installs one on `Reflect`; the test compares a fresh one with the package). */
export const reflectMetadataApi = () => {
  const store = new WeakMap<Target, Map<Key, Map<unknown, unknown>>>()
  const table = (target: Target, key: Key, create: boolean): Map<unknown, unknown> | undefined => {
    let byKey = store.get(target)
    if (!byKey) {
      if (!create) return undefined
      store.set(target, (byKey = new Map()))
    }
    let values = byKey.get(key)
    if (!values && create) byKey.set(key, (values = new Map()))
    return values
  }
  const ownHas = (k: unknown, t: Target, p: Key) => table(t, p, false)?.has(k) ?? false
  const ownKeys = (t: Target, p: Key): unknown[] => [...(table(t, p, false)?.keys() ?? [])]
  const has = (k: unknown, t: Target | null, p: Key): boolean => t !== null && (ownHas(k, t, p) || has(k, parentOf(t), p))
  const get = (k: unknown, t: Target | null, p: Key): unknown =>
    t === null ? undefined : ownHas(k, t, p) ? table(t, p, false)!.get(k) : get(k, parentOf(t), p)
  const keys = (t: Target | null, p: Key): unknown[] => (t === null ? [] : [...new Set([...ownKeys(t, p), ...keys(parentOf(t), p)])])
  const define = (k: unknown, value: unknown, target: unknown, p?: Key) => void table(check(target), p, true)!.set(k, value)
  return {
    decorate,
    metadata: (k: unknown, value: unknown) => (target: unknown, p?: Key) => define(k, value, target, p),
    defineMetadata: define,
    hasMetadata: (k: unknown, target: unknown, p?: Key) => has(k, check(target), p),
    hasOwnMetadata: (k: unknown, target: unknown, p?: Key) => ownHas(k, check(target), p),
    getMetadata: (k: unknown, target: unknown, p?: Key) => get(k, check(target), p),
    getOwnMetadata: (k: unknown, target: unknown, p?: Key) => table(check(target), p, false)?.get(k),
    getMetadataKeys: (target: unknown, p?: Key) => keys(check(target), p),
    getOwnMetadataKeys: (target: unknown, p?: Key) => ownKeys(check(target), p),
    deleteMetadata: (k: unknown, target: unknown, p?: Key): boolean => {
      const values = table(check(target), p, false)
      if (!values?.delete(k)) return false
      if (values.size === 0) store.get(target as Target)!.delete(p)
      return true
    },
  }
}

const reflect = Reflect as unknown as Record<string, unknown>
for (const [name, fn] of Object.entries(reflectMetadataApi())) if (typeof reflect[name] !== 'function') reflect[name] = fn
