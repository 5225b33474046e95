/**
 * The TON payloads (a comment's bag of cells, the address forms) the wallet adapter builds when it
 * pays: written by hand (adapters/ton/ton-comment-payload.ts), so neither @ton/core nor the Buffer
 * polyfill it needed is part of the app.
 */
export const loadTonPayloads = () => import('./ton-comment-payload.ts')
