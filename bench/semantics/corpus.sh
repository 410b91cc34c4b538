#!/usr/bin/env bash
# Lays out the fidelity corpus bench/semantics/run.mjs reads, from snapshots of the upstream
# repositories (git directories without a work tree, e.g. the search tool's fetch), into
# bench/out/semantics-corpus (ignored by git: the corpus is never committed).
# Usage: bash bench/semantics/corpus.sh GATEWAY_API_GIT_DIR CROSSPLANE_GIT_DIR
set -euo pipefail
out="$(cd "$(dirname "$0")/../.." && pwd)/bench/out/semantics-corpus"
rm -rf "$out" && mkdir -p "$out/gateway-api" "$out/crossplane"
git --git-dir="$1" archive HEAD config/crd/standard examples/standard | tar -x -C "$out/gateway-api"
git --git-dir="$2" archive HEAD cluster/crds | tar -x -C "$out/crossplane"
for repo in "$1" "$2"; do echo "$(basename "$(dirname "$repo")") $(git --git-dir="$repo" rev-parse HEAD)"; done > "$out/PINS"
cat "$out/PINS"
