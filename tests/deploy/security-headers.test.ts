import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, securityHeaders } from '../../deploy/security-headers.ts'

/**
 * One policy: deploy/nginx.conf writes deploy/security-headers.ts's production headers out by hand
 * (nginx cannot import them), so the file is read here and held equal to the module. This runs on any
 * machine; tests/deploy/nginx.test.ts sees the same headers on nginx's answers where nginx is installed.
 */

const conf = readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => !line.trim().startsWith('#'))
  .join('\n')

/** The add_header lines of a block's text, as name → value. */
const addHeaders = (text: string) => [...text.matchAll(/^\s*add_header\s+(\S+)\s+"([^"]*)"\s+always;/gm)].map((m) => [m[1]!, m[2]!] as const)

describe('deploy/nginx.conf sends the security headers of deploy/security-headers.ts', () => {
  it("the server block's headers are the production set, HSTS included", () => {
    expect(Object.fromEntries(addHeaders(conf))).toEqual(securityHeaders({ mode: 'production', tls: true }))
  })

  it('no location adds a header of its own (nginx would then drop every server-level one there)', () => {
    for (const block of conf.split(/\n\s*location\s/).slice(1)) {
      expect(block.slice(0, block.indexOf('\n    }'))).not.toMatch(/add_header/)
    }
  })

  it('server_tokens is off', () => {
    expect(conf).toMatch(/^\s*server_tokens off;/m)
  })

  it('production admits Telegram Web alone as a frame host, and scripts of the app alone', () => {
    const policy = contentSecurityPolicy('production')
    expect(policy).toContain('frame-ancestors https://web.telegram.org;')
    expect(policy).toContain("script-src 'self';")
    expect(policy).not.toMatch(/unsafe-eval|127\.0\.0\.1|localhost/)
    expect(contentSecurityPolicy('local')).toContain("script-src 'self';")
  })
})
