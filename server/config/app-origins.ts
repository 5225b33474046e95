/**
 * The origins the app is served from, as AXIOM_APP_ORIGINS lists them (comma-separated):
 * `scheme://host[:port]` each, http or https, nothing after but an optional `/`. Answers them as
 * URL.origin writes them (lower-case host, no default port), or throws saying which one is not one.
 */
export const parseAppOrigins = (text: string, name = 'AXIOM_APP_ORIGINS'): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((o) => {
      let url: URL | null = null
      try {
        url = /^https?:\/\/[^/?#@\s]+\/?$/i.test(o) ? new URL(o) : null
      } catch {}
      if (!url) throw new Error(`${name}: ${o} is not an origin (https://host[:port], nothing after)`)
      return url.origin
    })
