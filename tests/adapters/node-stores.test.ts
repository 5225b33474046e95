import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { axiomHome } from '../../adapters/node/axiom-home.ts'
import { FileKeyValueStore, FileSessionStore, SESSION_FILE_NAME, STORAGE_FILE_NAME } from '../../adapters/node/file-stores.ts'
import { InMemoryKeyValueStore } from '../../adapters/shared/in-memory-key-value-store.ts'
import { SystemClock } from '../../adapters/shared/system-clock.ts'
import { MemorySessionStore } from '../core/fakes/memory-stores.ts'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'axiom-adapters-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const modeOf = (path: string) => statSync(path).mode & 0o777

describe('FileSessionStore', () => {
  it('keeps tokens across runs in an owner-only file, creating the directory', () => {
    const dir = join(root, 'nested', 'axiom')
    new FileSessionStore(dir).set('auth_token', 'eyJ.a+b/c=')
    new FileSessionStore(dir).set('refresh_token', 'r-1')

    const nextRun = new FileSessionStore(dir)
    expect(nextRun.get('auth_token')).toBe('eyJ.a+b/c=')
    expect(nextRun.get('refresh_token')).toBe('r-1')
    expect(modeOf(join(dir, SESSION_FILE_NAME))).toBe(0o600)
    expect(modeOf(dir)).toBe(0o700)
  })

  it('forgets a removed token and leaves the other', () => {
    const store = new FileSessionStore(root)
    store.set('auth_token', 'a')
    store.set('refresh_token', 'r')
    store.remove('auth_token')
    expect(new FileSessionStore(root).get('auth_token')).toBeNull()
    expect(new FileSessionStore(root).get('refresh_token')).toBe('r')
  })

  it('reads a missing or damaged file as no session, and repairs it on the next write', () => {
    const store = new FileSessionStore(root)
    expect(store.get('auth_token')).toBeNull()
    writeFileSync(join(root, SESSION_FILE_NAME), '{"auth_token": "trunc')
    expect(store.get('auth_token')).toBeNull()
    store.set('refresh_token', 'r')
    expect(JSON.parse(readFileSync(join(root, SESSION_FILE_NAME), 'utf8'))).toEqual({ refresh_token: 'r' })
  })

  it('tightens a file that was readable by others when it rewrites it', () => {
    writeFileSync(join(root, SESSION_FILE_NAME), '{}', { mode: 0o644 })
    new FileSessionStore(root).set('auth_token', 'a')
    expect(modeOf(join(root, SESSION_FILE_NAME))).toBe(0o600)
  })
})

describe('FileKeyValueStore', () => {
  it('keeps values across runs, apart from the session, and clears only its own file', () => {
    const session = new FileSessionStore(root)
    session.set('auth_token', 'a')
    const store = new FileKeyValueStore(root)
    store.set('user', '123456789012')
    store.set('lastRefCount', '4')
    store.remove('lastRefCount')

    expect(new FileKeyValueStore(root).get('user')).toBe('123456789012')
    expect(new FileKeyValueStore(root).get('lastRefCount')).toBeNull()
    expect(modeOf(join(root, STORAGE_FILE_NAME))).toBe(0o600)

    store.clear()
    expect(new FileKeyValueStore(root).get('user')).toBeNull()
    expect(session.get('auth_token')).toBe('a')
  })
})

describe('axiomHome', () => {
  it('is $AXIOM_HOME when set, else ~/.config/axiom', () => {
    expect(axiomHome({ AXIOM_HOME: '/srv/axiom' })).toBe('/srv/axiom')
    expect(axiomHome({})).toBe(join(homedir(), '.config', 'axiom'))
  })
})

describe('in-memory stores', () => {
  it('behave like the persistent ones for one process', () => {
    const kv = new InMemoryKeyValueStore()
    kv.set('user', '1')
    kv.set('wallet', '{}')
    kv.remove('wallet')
    expect([kv.get('user'), kv.get('wallet')]).toEqual(['1', null])
    kv.clear()
    expect(kv.get('user')).toBeNull()

    const session = new MemorySessionStore()
    session.set('auth_token', 'a')
    session.remove('refresh_token')
    expect([session.get('auth_token'), session.get('refresh_token')]).toEqual(['a', null])
  })
})

describe('SystemClock', () => {
  it('tells the wall-clock time in milliseconds', () => {
    const before = Date.now()
    const now = new SystemClock().nowMs()
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(Date.now())
  })
})
