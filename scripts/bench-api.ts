/**
 * A bench's client of the backend's API at `base` (the server's URL): GET without a body, POST with
 * one as JSON, the bearer token when given; anything but a 2xx throws with its path, status and body.
 */
export const benchApi =
  (base: string) =>
  async (path: string, token: string | null, body?: unknown): Promise<any> => {
    const r = await fetch(`${base}/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`)
    return r.json()
  }
