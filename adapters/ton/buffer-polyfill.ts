import { Buffer } from 'buffer'

// @ton/core expects Node's Buffer; browsers need the polyfill installed before it loads.
globalThis.Buffer ??= Buffer
