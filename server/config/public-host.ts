import { isIP } from 'node:net'

/** Names the public DNS never answers (RFC 6761, 6762, 8375; ICANN's .internal) or that home routers hand out. */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'lan', 'home.arpa', 'localdomain', 'test', 'invalid', 'example'] as const

const ipv4Kind = (ip: string): string => {
  const [a, b] = ip.split('.').map(Number) as [number, number]
  if (a === 127) return 'a loopback address'
  if (ip === '0.0.0.0') return 'the unspecified address'
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private address'
  if (a === 169 && b === 254) return 'a link-local address'
  if (a === 100 && b >= 64 && b <= 127) return "a carrier's shared address"
  return 'a bare IP address'
}

const ipv6Kind = (ip: string): string => {
  const h = ip.toLowerCase()
  if (h === '::1') return 'a loopback address'
  if (h === '::') return 'the unspecified address'
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)
  if (v4) return ipv4Kind(v4[1]!)
  if (/^f[cd]/.test(h)) return 'a private address'
  if (/^fe[89ab]/.test(h)) return 'a link-local address'
  return 'a bare IP address'
}

/**
 * Why an entry of a host allow-list (`host` or `host:port`, as AXIOM_TON_PROOF_DOMAINS lists them) is
 * not a public domain name, or null when it is one. The host is read as a URL reads it, so `127.1`,
 * `0x7f.1` and `2130706433` are the loopback address they are to a browser. Any IP address is refused:
 * what a wallet's tonProof names is the host of the app's manifest URL, an HTTPS page Telegram opens,
 * which is a domain; `localhost`, a single label and the names of private networks are refused.
 */
export const notPublicHost = (entry: string): string | null => {
  const text = entry.trim()
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::\d{1,5})?$/.exec(text)
  if (bracketed) return isIP(bracketed[1]!) === 6 ? ipv6Kind(bracketed[1]!) : 'not a host or host:port'
  if (isIP(text) === 6) return ipv6Kind(text)
  const m = /^([^:/?#@\s[\]]+)(?::\d{1,5})?$/.exec(text)
  if (!m) return 'not a host or host:port'
  let host: string
  try {
    host = new URL(`https://${m[1]}/`).hostname.replace(/\.$/, '')
  } catch {
    return 'not a host name'
  }
  if (isIP(host) === 4) return ipv4Kind(host)
  const suffix = PRIVATE_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`))
  if (suffix === 'localhost') return 'localhost'
  if (suffix) return `a private name (.${suffix})`
  if (!host.includes('.')) return 'a single-label name, not a public domain'
  return null
}
