#!/usr/bin/env node
// The `axiom` executable (package.json "bin"): registers tsx so Node runs the TypeScript CLI as is.
import { register } from 'tsx/esm/api'

register()
await import('./axiom.ts')
