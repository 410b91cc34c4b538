#!/usr/bin/env bash
# Builds the helm CLI from Go modules through the module proxy, into a cache outside the
# repository, for the tests of the charts `opgen edit --plugins helm` writes. Prints the
# path of the binary on stdout; progress goes to stderr.
#
#   hack/helm/build.sh            build if the cache lacks it
#   hack/helm/build.sh --print    print the path if it is built, else say so and exit 1
#
# Helm 4 because it is the line users run in late 2026: Helm 3 got its last (limited)
# release in September 2026 and only security fixes until February 2027. The charts opgen
# writes (apiVersion v2) work with both.
set -euo pipefail

HELM_VERSION=${HELM_VERSION:-4.3.1}
cache_root=${OPGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opgen}
dir="$cache_root/tools/helm-$HELM_VERSION"
binary="$dir/helm"

if [[ -x "$binary" ]]; then
  echo "$binary"
  exit 0
fi
if [[ ${1:-} == --print ]]; then
  echo "helm: $binary is missing; run hack/helm/build.sh" >&2
  exit 1
fi
command -v go >/dev/null || {
  echo "helm: no Go toolchain to build helm $HELM_VERSION; install Go, or put a helm binary at $binary" >&2
  exit 1
}

log() { echo "helm: $*" >&2; }
work="$cache_root/tools/build-helm-$HELM_VERSION"
mkdir -p "$work" "$dir"

# Two test runs that find the cache empty at once must not build into one module directory
# together: the second waits, then finds the binary built.
if command -v flock >/dev/null; then
  exec 9>"$work/.lock"
  if ! flock -n 9; then
    log "waiting for another build of helm $HELM_VERSION to finish"
    flock 9
  fi
  if [[ -x "$binary" ]]; then
    echo "$binary"
    exit 0
  fi
fi
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0

log "resolving helm.sh/helm/v4 v$HELM_VERSION"
upstream_mod=$(cd "$work" && go mod download -json "helm.sh/helm/v4@v$HELM_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
cat >"$work/go.mod" <<MOD
module opgen.local/helm

go $(sed -n 's/^go //p' "$upstream_mod")

require helm.sh/helm/v4 v$HELM_VERSION
MOD
# Nothing else is required, so module selection takes the versions helm's own go.mod pins.

start=$(date +%s)
log "building helm v$HELM_VERSION (cold: about ten minutes)"
(cd "$work" && go build -trimpath \
  -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=v$HELM_VERSION -X helm.sh/helm/v4/internal/version.gitTreeState=clean" \
  -o "$binary.tmp" helm.sh/helm/v4/cmd/helm)
mv "$binary.tmp" "$binary"
log "built helm v$HELM_VERSION in $(($(date +%s) - start)) s"
echo "$binary"
