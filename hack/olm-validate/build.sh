#!/usr/bin/env bash
# Builds hack/olm-validate (operator-framework/api's default bundle validators behind a small
# main) from Go modules through the module proxy, into a cache outside the repository, for the
# test that checks `opgen bundle` output with OLM's own validation. Prints the path of the
# binary on stdout; progress goes to stderr.
#
#   hack/olm-validate/build.sh            build if the cache lacks it
#   hack/olm-validate/build.sh --print    print the path if it is built, else say so and exit 1
set -euo pipefail

API_VERSION=${OLM_API_VERSION:-0.30.0}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache_root=${OPGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opgen}
dir="$cache_root/tools/olm-validate-$API_VERSION"
binary="$dir/olm-validate"
# The main's content is part of the cache key: an edited main.go is rebuilt.
stamp="$dir/main.go.sha256"
want=$(sha256sum "$here/main.go" | cut -d' ' -f1)

if [[ -x "$binary" && "$(cat "$stamp" 2>/dev/null)" == "$want" ]]; then
  echo "$binary"
  exit 0
fi
if [[ ${1:-} == --print ]]; then
  echo "olm-validate: $binary is missing; run hack/olm-validate/build.sh" >&2
  exit 1
fi
command -v go >/dev/null || {
  echo "olm-validate: no Go toolchain to build it; install Go" >&2
  exit 1
}

log() { echo "olm-validate: $*" >&2; }
work="$cache_root/tools/build-olm-validate-$API_VERSION"
mkdir -p "$work" "$dir"
if command -v flock >/dev/null; then
  exec 9>"$work/.lock"
  if ! flock -n 9; then
    log "waiting for another build to finish"
    flock 9
  fi
  if [[ -x "$binary" && "$(cat "$stamp" 2>/dev/null)" == "$want" ]]; then
    echo "$binary"
    exit 0
  fi
fi
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0

log "resolving github.com/operator-framework/api v$API_VERSION"
upstream_mod=$(cd "$work" && go mod download -json "github.com/operator-framework/api@v$API_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
cat >"$work/go.mod" <<MOD
module opgen.local/olm-validate

go $(sed -n 's/^go //p' "$upstream_mod")

require github.com/operator-framework/api v$API_VERSION
MOD
cp "$here/main.go" "$work/main.go"

start=$(date +%s)
log "building olm-validate with operator-framework/api v$API_VERSION (cold: a few minutes)"
(cd "$work" && go build -trimpath -ldflags "-s -w" -o "$binary.tmp" .)
mv "$binary.tmp" "$binary"
echo "$want" >"$stamp"
log "built in $(($(date +%s) - start)) s"
echo "$binary"
