#!/usr/bin/env bash
# Builds the controller-runtime peer of bench/runtime (or the peer in the directory given as
# the first argument, e.g. bench/peers/controller-runtime-idle) into a cache outside the
# repository, keyed by the hash of its sources, so a bench run does not rebuild
# controller-runtime (several minutes cold on a 2-core machine). Prints the binary's path.
set -euo pipefail
here=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")}" && pwd)
cache_root=${OPGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opgen}
key=$(cat "$here/go.mod" "$here/go.sum" "$here/main.go" | sha256sum | cut -c1-12)
binary="$cache_root/tools/bench-peer-$(basename "$here")-$key/peer"
if [[ -x "$binary" ]]; then
  echo "$binary"
  exit 0
fi
command -v go >/dev/null || {
  echo "bench peer: no Go toolchain to build $here; install Go or run the bench with --no-peer" >&2
  exit 1
}
mkdir -p "$(dirname "$binary")"
start=$(date +%s)
echo "bench peer: building $(basename "$here") (cold: several minutes)" >&2
(cd "$here" && GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -o "$binary.tmp" .)
mv "$binary.tmp" "$binary"
echo "bench peer: built in $(($(date +%s) - start)) s" >&2
echo "$binary"
