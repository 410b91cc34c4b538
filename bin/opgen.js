#!/usr/bin/env node
import { enableCompileCache } from '../dist/compile-cache.js';

enableCompileCache();
const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv);
