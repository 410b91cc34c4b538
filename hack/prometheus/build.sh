#!/usr/bin/env bash
# Builds the Prometheus server from Go modules through the module proxy, into a cache outside
# the repository, for the test that runs every panel query of the dashboards
# `opgen edit --plugins grafana` writes against a real Prometheus scraping a running operator.
# Prints the path of the binary on stdout; progress goes to stderr.
#
#   hack/prometheus/build.sh            build if the cache lacks it
#   hack/prometheus/build.sh --print    print the path if it is built, else say so and exit 1
#
# The test scrapes one static target, so the build drops every service-discovery plugin
# (tag remove_all_sd): the cloud SDKs they pull in are most of Prometheus' build time and size.
# The web UI is not embedded (no builtinassets tag); the HTTP API the test uses needs none.
set -euo pipefail

PROMETHEUS_VERSION=${PROMETHEUS_VERSION:-0.316.0}
cache_root=${OPGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opgen}
dir="$cache_root/tools/prometheus-$PROMETHEUS_VERSION"
binary="$dir/prometheus"

if [[ -x "$binary" ]]; then
  echo "$binary"
  exit 0
fi
if [[ ${1:-} == --print ]]; then
  echo "prometheus: $binary is missing; run hack/prometheus/build.sh" >&2
  exit 1
fi
command -v go >/dev/null || {
  echo "prometheus: no Go toolchain to build prometheus $PROMETHEUS_VERSION; install Go, or put a prometheus binary at $binary" >&2
  exit 1
}

log() { echo "prometheus: $*" >&2; }
work="$cache_root/tools/build-prometheus-$PROMETHEUS_VERSION"
mkdir -p "$work" "$dir"

# Two test runs that find the cache empty at once must not build into one module directory
# together: the second waits, then finds the binary built.
if command -v flock >/dev/null; then
  exec 9>"$work/.lock"
  if ! flock -n 9; then
    log "waiting for another build of prometheus $PROMETHEUS_VERSION to finish"
    flock 9
  fi
  if [[ -x "$binary" ]]; then
    echo "$binary"
    exit 0
  fi
fi
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0

log "resolving github.com/prometheus/prometheus v$PROMETHEUS_VERSION"
upstream_mod=$(cd "$work" && go mod download -json "github.com/prometheus/prometheus@v$PROMETHEUS_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
cat >"$work/go.mod" <<MOD
module opgen.local/prometheus

go $(sed -n 's/^go //p' "$upstream_mod")

require github.com/prometheus/prometheus v$PROMETHEUS_VERSION
MOD
# Nothing else is required, so module selection takes the versions Prometheus' own go.mod pins.

start=$(date +%s)
log "building prometheus v$PROMETHEUS_VERSION without service discovery plugins (cold: six to twelve minutes)"
(cd "$work" && go build -trimpath -tags remove_all_sd \
  -ldflags "-s -w -X github.com/prometheus/common/version.Version=$PROMETHEUS_VERSION" \
  -o "$binary.tmp" github.com/prometheus/prometheus/cmd/prometheus)
mv "$binary.tmp" "$binary"
log "built prometheus v$PROMETHEUS_VERSION in $(($(date +%s) - start)) s"
echo "$binary"
