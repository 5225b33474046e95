/** The least estimated entropy production takes for JWT_SECRET (server/production-checks.ts). */
export const MIN_SECRET_ENTROPY_BITS = 128

/** Only the first characters are read (the count is quadratic in the length): a longer secret is not rated higher for its tail. */
const READ_CHARS = 1024

const poolOf = (cp: number): 'digit' | 'lower' | 'upper' | 'ascii' | 'other' =>
  cp >= 0x30 && cp <= 0x39 ? 'digit' : cp >= 0x61 && cp <= 0x7a ? 'lower' : cp >= 0x41 && cp <= 0x5a ? 'upper' : cp >= 0x20 && cp <= 0x7e ? 'ascii' : 'other'
const POOL_SIZE = { digit: 10, lower: 26, upper: 26, ascii: 33, other: 100 } as const

/** The shortest stretch that counts as a repeat of earlier text. */
const MIN_REPEAT = 3
/** What a word is taken to hold: one of 2048 (the size of BIP-39's list). */
const WORD_BITS = 11
const isLetter = (cp: number | undefined) => cp !== undefined && (poolOf(cp) === 'lower' || poolOf(cp) === 'upper')
/** The length of the word starting at i: a run of 3–12 ASCII letters, lower-case, upper-case or capitalised, after no letter; else 0. */
const wordAt = (cps: readonly number[], i: number): number => {
  if (isLetter(cps[i - 1])) return 0
  let end = i
  while (isLetter(cps[end])) end++
  const run = String.fromCodePoint(...cps.slice(i, end))
  return run.length >= 3 && run.length <= 12 && /^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)$/.test(run) ? run.length : 0
}

/**
 * An estimate of how many bits of entropy a secret holds, from its text alone: the smaller of two
 * counts, each of which can only overstate what a guesser must try.
 *
 * 1. Shannon: the secret's own character frequencies, −Σ p·log2 p bits a character, times its length.
 *    32 identical characters hold 0 bits; a string of 2 distinct characters at most 1 bit a character.
 * 2. Patterns: read left to right, a stretch of 3 or more characters that repeats earlier text (the
 *    earlier copy may run into the stretch itself, as in LZ77: `aaaa…`, `abcabc…`) holds nothing, and
 *    a character that continues the step between the two before it (`aaa`, `abc`, `9876`, `2468`)
 *    holds nothing; every other character holds log2(pool) bits, the pool being the sizes of the
 *    character classes the secret uses added up (digits 10, lower-case 26, upper-case 26, the rest of
 *    printable ASCII 33, anything else 100), except that a word — a run of 3 to 12 letters after no
 *    letter, all lower-case, all upper-case or capitalised — holds at most 11 bits, as if drawn from
 *    a list of 2048, and the punctuation or space after a word holds nothing when it is the same as
 *    after the word before (`my-secret-key`: one `-` counts).
 *
 * So 32 identical characters, `0123456789` repeated, and a string of 2 distinct characters (at most
 * 10 positions start a 3-character stretch not seen before: ≤ 10 × 11 bits) stay under 128 bits, and
 * so do phrases of up to ~10 words; 32 random bytes as base64 (`openssl rand -base64 32`, ≥ 190 bits
 * by count 1) or hex (`-hex 32`, ≥ 210) are well over. It knows no dictionary and no keyboard: a
 * long sentence, words run together past 12 letters, or `qwertyuiop…` can pass, so a secret must
 * come from a random generator, not from a person.
 */
export const estimatedEntropyBits = (secret: string): number => {
  const cps = Array.from(secret.slice(0, 2 * READ_CHARS), (c) => c.codePointAt(0)!).slice(0, READ_CHARS)
  const n = cps.length
  if (n === 0) return 0

  const counts = new Map<number, number>()
  for (const cp of cps) counts.set(cp, (counts.get(cp) ?? 0) + 1)
  let perChar = 0
  for (const c of counts.values()) perChar -= (c / n) * Math.log2(c / n)
  const shannon = perChar * n

  const classes = new Set(cps.map(poolOf))
  const literalBits = Math.log2([...classes].reduce((sum, k) => sum + POOL_SIZE[k], 0))
  let literals = 0
  let afterWord = false
  let separator: number | null = null
  for (let i = 0; i < n; ) {
    let longest = 0
    for (let j = 0; j < i && longest < n - i; j++) {
      let k = 0
      while (i + k < n && cps[j + k] === cps[i + k]) k++
      if (k > longest) longest = k
    }
    if (longest >= MIN_REPEAT) {
      i += longest
      afterWord = false
      continue
    }
    const word = wordAt(cps, i)
    if (word > 0) {
      literals += Math.min(word, WORD_BITS / literalBits)
      i += word
      afterWord = true
      continue
    }
    const cp = cps[i]!
    const continuesStep = i >= 2 && cp - cps[i - 1]! === cps[i - 1]! - cps[i - 2]!
    const sameSeparator = afterWord && poolOf(cp) === 'ascii' && cp === separator
    if (afterWord && poolOf(cp) === 'ascii') separator = cp
    if (!continuesStep && !sameSeparator) literals++
    afterWord = false
    i++
  }
  return Math.min(shannon, literals * literalBits)
}
