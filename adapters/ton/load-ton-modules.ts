/**
 * @ton/core expects Node's Buffer when they load. Bundlers may evaluate a CommonJS
 * package before a polyfill imported next to it, so the polyfill is loaded first, on its own.
 */
const polyfilled = () => import('./buffer-polyfill.ts')

export const loadTonPayloads = async () => {
  await polyfilled()
  return import('./ton-comment-payload.ts')
}
