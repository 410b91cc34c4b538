#!/usr/bin/env bash
# Builds the test control plane (etcd, kube-apiserver, kube-controller-manager, kubectl)
# from Go modules through the module proxy, into a cache laid out like setup-envtest's
# KUBEBUILDER_ASSETS. Prints the assets directory on stdout; progress goes to stderr.
#
#   build.sh            build if the cache lacks a binary
#   build.sh --print    print the assets directory if it is complete, else say what is
#                       missing and exit 1; build nothing
#
# It ships in @opgen/runtime (node_modules/@opgen/runtime/controlplane/build.sh in a
# project); an opgen checkout runs it through hack/controlplane/build.sh.
# @opgen/runtime/testing looks for the binaries in KUBEBUILDER_ASSETS first, then in this
# cache, then downloads them (verified); it runs this script only when no download can be had
# and Go is installed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=versions.env
source "$here/versions.env"

cache_root=${OPGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opgen}
assets="$cache_root/controlplane/$KUBERNETES_VERSION"
binaries=(etcd kube-apiserver kube-controller-manager kubectl)

find_missing() {
  missing=()
  for b in "${binaries[@]}"; do [[ -x "$assets/$b" ]] || missing+=("$b"); done
}

find_missing
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "$assets"
  exit 0
fi
if [[ ${1:-} == --print ]]; then
  echo "controlplane: $assets lacks ${missing[*]}; run $0 without --print to build them" >&2
  exit 1
fi

command -v go >/dev/null || {
  echo "controlplane: no Go toolchain: install Go (go.dev/doc/install) and run this again, or set KUBEBUILDER_ASSETS to a directory with ${binaries[*]} (setup-envtest use $KUBERNETES_VERSION -p path)" >&2
  exit 1
}

log() { echo "controlplane: $*" >&2; }

# A cold go build prints nothing for minutes: say every 30 s that it is still going, so a
# test run that triggered it does not look hung.
# Its sleep is killed with it, so nothing holds the caller's stdout or stderr open after.
heartbeat() {
  local what=$1 since nap
  since=$(date +%s)
  trap 'kill "$nap" 2>/dev/null; exit 0' TERM
  while :; do
    sleep 30 >/dev/null &
    nap=$!
    wait "$nap"
    log "still building $what ($(($(date +%s) - since)) s)"
  done
}
# Runs "$@" with a heartbeat for $1's name; the heartbeat stops with it, failed or not.
with_heartbeat() {
  local what=$1 pid status=0
  shift
  heartbeat "$what" &
  pid=$!
  "$@" || status=$?
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null || true
  return "$status"
}
work="$cache_root/controlplane/build-$KUBERNETES_VERSION"
mkdir -p "$work/kubernetes" "$work/etcd" "$assets"

# Two test runs that find the cache empty at once must not build into the same module
# directory together: the second waits, then finds the binaries built.
if command -v flock >/dev/null; then
  exec 9>"$work/.lock"
  if ! flock -n 9; then
    log "waiting for another build of the same version to finish"
    flock 9
  fi
  find_missing
  if [[ ${#missing[@]} -eq 0 ]]; then
    echo "$assets"
    exit 0
  fi
fi
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0

# Kubernetes: the main module's go.mod replaces every k8s.io/* staging module with a
# directory of its own tree; a consumer must pin each to the published v0.x.y instead.
build_kubernetes() {
  local mod="$work/kubernetes"
  local staging_version="v0.${KUBERNETES_VERSION#1.}"
  log "resolving k8s.io/kubernetes v$KUBERNETES_VERSION"
  local upstream_mod
  upstream_mod=$(cd "$mod" && go mod download -json "k8s.io/kubernetes@v$KUBERNETES_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
  {
    echo "module opgen.local/controlplane"
    echo
    echo "go $(sed -n 's/^go //p' "$upstream_mod")"
    echo
    echo "require k8s.io/kubernetes v$KUBERNETES_VERSION"
    echo
    # Only modules the binaries import need a pin; a staging module that was never
    # published (sample-cli-plugin) is skipped rather than pinned to nothing.
    sed -n 's#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\1#p' "$upstream_mod" | while read -r m; do
      if (cd "$mod" && go list -m "$m@$staging_version" >/dev/null 2>&1); then
        echo "replace $m => $m $staging_version"
      fi
    done
  } >"$mod/go.mod.new"
  mv "$mod/go.mod.new" "$mod/go.mod"

  local pkg=k8s.io/component-base/version
  local ldflags="-s -w \
    -X $pkg.gitVersion=v$KUBERNETES_VERSION \
    -X $pkg.gitMajor=${KUBERNETES_VERSION%%.*} \
    -X $pkg.gitMinor=$(echo "$KUBERNETES_VERSION" | cut -d. -f2) \
    -X $pkg.gitTreeState=clean \
    -X $pkg.buildDate=1970-01-01T00:00:00Z \
    -X k8s.io/client-go/pkg/version.gitVersion=v$KUBERNETES_VERSION"
  for cmd in kube-apiserver kube-controller-manager kubectl; do
    [[ -x "$assets/$cmd" ]] && continue
    log "building $cmd v$KUBERNETES_VERSION (cold: many minutes)"
    with_heartbeat "$cmd" bash -c 'cd "$1" && go build -trimpath -ldflags "$2" -o "$3" "k8s.io/kubernetes/cmd/$4"' _ \
      "$mod" "$ldflags" "$assets/$cmd.tmp" "$cmd"
    mv "$assets/$cmd.tmp" "$assets/$cmd"
  done
}

build_etcd() {
  [[ -x "$assets/etcd" ]] && return
  local mod="$work/etcd"
  log "building etcd v$ETCD_VERSION"
  cat >"$mod/go.mod" <<EOF
module opgen.local/etcd

go 1.24

require go.etcd.io/etcd/server/v3 v$ETCD_VERSION
EOF
  cat >"$mod/main.go" <<'EOF'
// The etcd command: etcd's own main is one call into etcdmain.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
EOF
  with_heartbeat etcd bash -c 'cd "$1" && go build -trimpath -ldflags "-s -w" -o "$2" .' _ "$mod" "$assets/etcd.tmp"
  mv "$assets/etcd.tmp" "$assets/etcd"
}

start=$(date +%s)
build_etcd
build_kubernetes
log "built ${missing[*]} in $(($(date +%s) - start)) s into $assets"
echo "$assets"
