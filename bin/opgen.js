#!/usr/bin/env node
// Runs the CLI bundled by scripts/bundle-cli.js (`npm run build`).
import { enableCompileCache } from '../dist/opgen/compile-cache.js';

// Stack traces of the bundle point back to src/ only with source maps, which cost time to load.
if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
enableCompileCache();
const { main } = await import('../dist/opgen/cli.js');
process.exitCode = await main(process.argv);
