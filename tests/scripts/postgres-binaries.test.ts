/**
 * The embedded PostgreSQL of the `server-postgres` tests (tests/support/postgres.ts) from a checkout
 * inside a private folder (mode 0700, as /root or `mktemp -d`): as root the server runs as the
 * `postgres` user, which cannot pass that folder, so the binaries are run from a copy it can reach.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installedNative, postgresUser, reachableByOthers, reachableNative, startLocalPostgres } from '../support/postgres.ts'

let privateParent: string
let base: string
let checkoutNative: string
let installed: string

beforeAll(async () => {
  installed = await installedNative()
  privateParent = mkdtempSync(join(tmpdir(), 'axiom-private-'))
  chmodSync(privateParent, 0o700)
  checkoutNative = join(privateParent, 'checkout', 'native')
  cpSync(installed, checkoutNative, { recursive: true, verbatimSymlinks: true })
  base = mkdtempSync(join(tmpdir(), 'axiom-pg-base-'))
  chmodSync(base, 0o755)
})

afterAll(() => {
  rmSync(privateParent, { recursive: true, force: true })
  rmSync(base, { recursive: true, force: true })
})

const runAs = (file: string) => {
  const user = postgresUser()
  return spawnSync(file, ['--version'], { encoding: 'utf8', ...(user ? { uid: user.uid, gid: user.gid } : {}) })
}

describe('the PostgreSQL binaries from a private checkout', () => {
  it('tells a reachable path from one behind a 0700 folder', () => {
    expect(reachableByOthers(privateParent)).toBe(false)
    expect(reachableByOthers(checkoutNative)).toBe(false)
    expect(reachableByOthers(base)).toBe(true)
  })

  it('copies them to a 0755 folder named after their content, which the server user can run', () => {
    const copy = reachableNative(checkoutNative, base)
    expect(copy).toMatch(new RegExp(`^${base}/axiom-pg-native-[0-9a-f]{16}$`))
    expect(reachableByOthers(copy)).toBe(true)
    expect(statSync(copy).mode & 0o777).toBe(0o755)
    expect(readFileSync(join(copy, 'bin', 'postgres')).equals(readFileSync(join(checkoutNative, 'bin', 'postgres')))).toBe(true)
    const run = runAs(join(copy, 'bin', 'postgres'))
    expect(run.error).toBeUndefined()
    expect(run.stdout).toMatch(/^postgres \(PostgreSQL\) \d+/)
    if (postgresUser()) {
      // As root the original is out of the postgres user's reach: the reason for the copy.
      expect(runAs(join(checkoutNative, 'bin', 'postgres')).error).toMatchObject({ code: 'EACCES' })
    }
  })

  it('reuses the copy on the next run, and never one that others may write to', () => {
    const first = reachableNative(checkoutNative, base)
    const inode = statSync(join(first, 'bin', 'postgres')).ino
    expect(reachableNative(checkoutNative, base)).toBe(first)
    expect(statSync(join(first, 'bin', 'postgres')).ino).toBe(inode)

    chmodSync(first, 0o777)
    const instead = reachableNative(checkoutNative, base)
    expect(instead).not.toBe(first)
    expect(reachableByOthers(instead)).toBe(true)
    expect(statSync(instead).mode & 0o022).toBe(0)
    chmodSync(first, 0o755)
  })

  it('names the copy after the content: changed binaries get a copy of their own', () => {
    const before = reachableNative(checkoutNative, base)
    const other = join(privateParent, 'other', 'native')
    cpSync(checkoutNative, other, { recursive: true, verbatimSymlinks: true })
    writeFileSync(join(other, 'share', 'axiom-extra'), 'x')
    expect(reachableNative(other, base)).not.toBe(before)
  })

  it('uses binaries the server user reaches where they are', () => {
    expect(reachableNative(base, base)).toBe(base)
  })

  it('rejects with the reason when a binary cannot be run, instead of an unhandled error event', async () => {
    const broken = join(base, 'broken')
    mkdirSync(join(broken, 'bin'), { recursive: true })
    writeFileSync(join(broken, 'bin', 'initdb'), 'not a program', { mode: 0o644 })
    writeFileSync(join(broken, 'bin', 'postgres'), 'not a program', { mode: 0o644 })
    await expect(startLocalPostgres({ native: broken })).rejects.toThrow(/initdb: spawn .*EACCES/)
  })
})
