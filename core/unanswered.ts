/**
 * The failures that leave a request's outcome unknown: nothing came back (network error, timeout)
 * or a gateway or server error stood between (5xx). The server may have carried the request out.
 * Every other failure is a definite answer: the request was refused, or never sent.
 */
export const UNANSWERED_TAGS: ReadonlySet<string> = new Set(['NetworkError', 'Timeout', 'ServerFailed'])

export const isUnanswered = (error: { readonly _tag: string }): boolean => UNANSWERED_TAGS.has(error._tag)
