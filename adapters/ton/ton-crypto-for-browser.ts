/**
 * What @ton/core calls from @ton/crypto (cell hashing and Ed25519 signatures), for the browser build.
 *
 * @ton/crypto is CommonJS, and @ton/core's `require('@ton/crypto')` loads its whole index, mnemonic
 * and password word lists included (≈ 23 KiB gz the app never uses). vite.config.ts resolves the bare
 * `@ton/crypto` to this module in the app's bundle only; Node (the CLI, the server, the tests) keeps
 * the full package. If @ton/core starts calling another export, its absence fails the
 * payload test in tests/e2e (the purchase builds a comment cell in the browser).
 */
export { sha256, sha256_sync } from '@ton/crypto/dist/primitives/sha256.js'
export { sign, signVerify } from '@ton/crypto/dist/primitives/nacl.js'
