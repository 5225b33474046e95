import type { IncomingMessage } from 'node:http'
import fc from 'fast-check'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { clientIp, trustProxyFromEnv, trustProxyHops } from '../../server/http/client-ip.ts'
import { optionsFromEnv } from '../../server/main.ts'

/**
 * The client's IP behind n trusted proxies (AXIOM_TRUST_PROXY=n): X-Forwarded-For read from its
 * right, n entries in. Each proxy appends its own peer to the header, so a client that writes the
 * header itself only adds entries on the left, which n trusted hops never reach.
 */

/** A request as Node hands it over: a peer and the header lines as the client and proxies wrote them. */
const request = (peer: string, forwardedFor?: string | string[]): IncomingMessage =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage

describe('clientIp counts trusted hops from the right of X-Forwarded-For', () => {
  it('0 hops: the peer, whatever the header says', () => {
    expect(clientIp(request('10.0.0.9', '1.2.3.4'), 0)).toBe('10.0.0.9')
    expect(clientIp(request('10.0.0.9'), 0)).toBe('10.0.0.9')
  })

  it('1 hop (the shipped nginx, which sets the header to its peer): the last entry, not the forged first ones', () => {
    // nginx behind no other proxy overwrites the header: one entry, the real client.
    expect(clientIp(request('172.18.0.5', '198.51.100.7'), 1)).toBe('198.51.100.7')
    // A proxy that appends (proxy_add_x_forwarded_for, most load balancers): the client's own text stays on the left.
    expect(clientIp(request('172.18.0.5', '1.2.3.4, 198.51.100.7'), 1)).toBe('198.51.100.7')
    expect(clientIp(request('172.18.0.5', '1.2.3.4,5.6.7.8 ,  198.51.100.7'), 1)).toBe('198.51.100.7')
    // Nothing forwarded (a request to the backend from inside the network): the peer.
    expect(clientIp(request('172.18.0.5'), 1)).toBe('172.18.0.5')
    expect(clientIp(request('172.18.0.5', ''), 1)).toBe('172.18.0.5')
    expect(clientIp(request('172.18.0.5', ' , ,'), 1)).toBe('172.18.0.5')
  })

  it('2 hops (a TLS front that appends, then nginx that appends): the second entry from the right', () => {
    expect(clientIp(request('172.18.0.5', '6.6.6.6, 198.51.100.7, 172.18.0.2'), 2)).toBe('198.51.100.7')
    // Fewer entries than hops: the leftmost one (as Fastify's request.ip).
    expect(clientIp(request('172.18.0.5', '198.51.100.7'), 2)).toBe('198.51.100.7')
    expect(clientIp(request('172.18.0.5', '9.9.9.9, 8.8.8.8, 198.51.100.7, 172.18.0.2'), 3)).toBe('8.8.8.8')
  })

  it('a forged entry never moves the answer: whatever a client prepends, n hops read the same address', () => {
    fc.assert(
      fc.property(fc.array(fc.ipV4(), { maxLength: 6 }), fc.ipV4(), fc.array(fc.ipV4(), { minLength: 0, maxLength: 2 }), (forged, real, proxies) => {
        const hops = proxies.length + 1
        const header = [...forged, real, ...proxies].join(', ')
        expect(clientIp(request('172.18.0.5', header), hops)).toBe(real)
      }),
    )
  })
})

describe("Fastify's request.ip agrees with clientIp", () => {
  // Header text from the characters that matter to the parsing: addresses' characters, commas and blanks.
  const headerText = fc.string({ unit: fc.constantFrom('1', '2', '.', ':', 'a', ',', ' ', '\t', ' ', '\u00a0'), maxLength: 24 })

  it('for every hop count and any header text, as the backend configures Fastify (trustProxyHops)', async () => {
    for (const hops of [0, 1, 2, 3]) {
      const app = Fastify({ trustProxy: trustProxyHops(hops) })
      app.get('/ip', async (req) => ({ fastify: req.ip, ours: clientIp(req.raw, hops) }))
      await app.ready()
      await fc.assert(
        fc.asyncProperty(headerText, async (header) => {
          const r = await app.inject({ method: 'GET', url: '/ip', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': header } })
          const { fastify, ours } = r.json() as { fastify: string; ours: string }
          expect(ours).toBe(fastify)
        }),
        { numRuns: 200 },
      )
      await app.close()
    }
  })

  it('a bare number would not do: Fastify 5 trusts no hop for `trustProxy: 1`', async () => {
    // Fastify's types leave numbers out; its code takes one (and trusts no hop).
    const app = Fastify({ trustProxy: 1 as never })
    app.get('/ip', async (req) => req.ip)
    const r = await app.inject({ method: 'GET', url: '/ip', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '198.51.100.7' } })
    expect(r.body).toBe('10.1.2.3')
    await app.close()
  })
})

describe('AXIOM_TRUST_PROXY', () => {
  it('is a count of trusted proxies: unset or 0 none, 1 the shipped nginx, 2 a front before it', () => {
    expect(trustProxyFromEnv(undefined)).toBe(0)
    expect(trustProxyFromEnv('')).toBe(0)
    expect(trustProxyFromEnv('0')).toBe(0)
    expect(trustProxyFromEnv('1')).toBe(1)
    expect(trustProxyFromEnv(' 2 ')).toBe(2)
    expect(optionsFromEnv({}).trustProxy).toBeUndefined()
    expect(optionsFromEnv({ AXIOM_TRUST_PROXY: '1' }).trustProxy).toBe(1)
    expect(optionsFromEnv({ AXIOM_TRUST_PROXY: '2' }).trustProxy).toBe(2)
  })

  it('anything else stops the start rather than trusting every hop', () => {
    for (const v of ['true', 'yes', '-1', '1.5', 'loopback', '100']) {
      expect(() => optionsFromEnv({ AXIOM_TRUST_PROXY: v })).toThrow(/AXIOM_TRUST_PROXY must be the number of proxies/)
    }
  })
})
