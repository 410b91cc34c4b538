#!/usr/bin/env bash
# Builds the semantics prototype (issue 36, design (b)) from this folder's Go module through the
# module proxy, into a cache outside the repository (~/.cache/opgen/tools/semantics-wasm-<k8s>/):
# `semantics-wasm`, the WASI reactor (a .wasm file, marked executable only so the shared cache
# check finds it), and `semantics-native` beside it, the same code as a helper for this machine.
# Prints the path of the .wasm on stdout; progress goes to stderr.
#
#   hack/semantics-wasm/build.sh            build if the cache lacks it (or the sources changed)
#   hack/semantics-wasm/build.sh --print    print the path if it is built, else say so and exit 1
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../lib/go-tool.sh"
# The k8s.io modules must match the control plane opgen tests against.
source "$here/../../runtime/controlplane/versions.env"
want="v0.${KUBERNETES_VERSION#1.}"
have=$(sed -n 's/^\tk8s.io\/apiextensions-apiserver \(v[^ ]*\)$/\1/p' "$here/go.mod")
if [[ "$have" != "$want" ]]; then
  echo "hack/semantics-wasm/go.mod: k8s.io/apiextensions-apiserver is $have, versions.env wants $want" >&2
  exit 1
fi

# The module's content is part of the cache key: an edited source is rebuilt.
go_tool_start semantics-wasm "$KUBERNETES_VERSION" "${1:-}" "$(cd "$here" && cat go.mod go.sum ./*.go | sha256sum | cut -d' ' -f1)"
cp "$here"/go.mod "$here"/go.sum "$here"/*.go "$work/"
build_start=$(date +%s)
log "building for wasip1 and $(go env GOOS)/$(go env GOARCH) (cold: about ten minutes on two cores)"
flags=(-trimpath "-ldflags=-s -w")
(cd "$work" && GOOS=wasip1 GOARCH=wasm go build "${flags[@]}" -buildmode=c-shared -o "$binary.tmp" .)
(cd "$work" && go build "${flags[@]}" -o "$dir/semantics-native" .)
chmod +x "$binary.tmp"
go_tool_finish
