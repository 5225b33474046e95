/**
 * What the app's browser build takes from @ton/core: the builder for a comment cell (with its BOC)
 * and the address forms (adapters/ton/ton-comment-payload.ts).
 *
 * @ton/core is CommonJS, so the bundler cannot drop the parts of its index the app never calls
 * (dictionaries, contracts, tuples, the exotic-cell and inspection code, …). vite.config.ts
 * resolves the bare `@ton/core` to this module in the app's bundle only; Node (the CLI, the
 * server, the tests) keeps the whole package. If ton-comment-payload.ts starts calling another
 * export, the typecheck fails here first.
 */
export { Address } from '@ton/core/dist/address/Address.js'
export { beginCell } from '@ton/core/dist/boc/Builder.js'
