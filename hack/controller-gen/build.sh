#!/usr/bin/env bash
# Builds controller-gen (controller-tools' CLI) from the Go module proxy into a cache outside
# the repository, for the conformance suite (test/conformance) that compares `opgen
# manifests` with it. Prints the path of the binary on stdout; progress goes to stderr.
#
#   hack/controller-gen/build.sh           build if the cache lacks it
#   hack/controller-gen/build.sh --print   print the path if it is built, else say so and exit 1
#
# The version is the one hack/builtins/go.mod pins, which generated src/data/builtins.jsonl.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CONTROLLER_TOOLS_VERSION=$(sed -n 's/^\s*sigs\.k8s\.io\/controller-tools \(v[^ ]*\).*/\1/p' "$here/../builtins/go.mod")
cache_root=${OPGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opgen}
dir="$cache_root/controller-gen/$CONTROLLER_TOOLS_VERSION"
binary="$dir/controller-gen"

if [[ -x "$binary" ]]; then
  echo "$binary"
  exit 0
fi
if [[ ${1:-} == --print ]]; then
  echo "controller-gen: $binary is missing; run hack/controller-gen/build.sh" >&2
  exit 1
fi
command -v go >/dev/null || {
  echo "controller-gen: no Go toolchain to build controller-gen $CONTROLLER_TOOLS_VERSION; install Go" >&2
  exit 1
}

log() { echo "controller-gen: $*" >&2; }
mkdir -p "$dir"
# Two test runs that find the cache empty at once must not build together: the second
# waits, then finds the binary built.
if command -v flock >/dev/null; then
  exec 9>"$dir/.lock"
  if ! flock -n 9; then
    log "waiting for another build of controller-gen $CONTROLLER_TOOLS_VERSION to finish"
    flock 9
  fi
  if [[ -x "$binary" ]]; then
    echo "$binary"
    exit 0
  fi
fi

start=$(date +%s)
log "building controller-gen $CONTROLLER_TOOLS_VERSION (cold: a few minutes)"
# go install @version builds with controller-tools' own go.mod: the released binary's modules.
tmp=$(mktemp -d "$dir/build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
GOBIN=$tmp GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0 go install "sigs.k8s.io/controller-tools/cmd/controller-gen@$CONTROLLER_TOOLS_VERSION"
mv "$tmp/controller-gen" "$binary"
log "built controller-gen $CONTROLLER_TOOLS_VERSION in $(($(date +%s) - start)) s"
echo "$binary"
