#!/usr/bin/env bash
# Bundles bench/semantics/fidelity.ts (it imports the suite's TypeScript: the corpus, the fuzz
# generator, the memory cluster) and runs it. One bundle has one import.meta.url: every module
# gets the corpus module's own URL, which is the only one whose relative paths it reads; and
# `require` is Node's, for the modules that load a CommonJS package lazily.
# Usage: bash bench/semantics/fidelity.sh FUZZ_RECORD_FILE COUNT [SEED]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
npx esbuild bench/semantics/fidelity.ts --bundle --platform=node --format=esm --packages=external \
  --log-level=warning --define:import.meta.url=__corpusModuleUrl \
  "--banner:js=import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url); const __corpusModuleUrl = new URL('../../test/corpus/corpus.ts', import.meta.url).href;" \
  --outfile=bench/out/fidelity.mjs
exec node --no-warnings bench/out/fidelity.mjs "$@"
