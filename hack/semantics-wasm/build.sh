#!/usr/bin/env bash
# Builds the semantics prototype twice from the Go module proxy: a WASI reactor
# (out/semantics.wasm) and a native helper for this machine (out/semantics-<os>-<arch>).
# Usage: bash hack/semantics-wasm/build.sh [--print]   (--print: only print the out dir)
# Neither artefact is committed (see .gitignore).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/out"
if [[ "${1:-}" == "--print" ]]; then echo "$out"; exit 0; fi
# The k8s.io modules must match the control plane opgen tests against.
. "$here/../../runtime/controlplane/versions.env"
want="v0.${KUBERNETES_VERSION#1.}"
have="$(cd "$here" && go list -m -f '{{.Version}}' k8s.io/apiextensions-apiserver)"
if [[ "$have" != "$want" ]]; then
  echo "hack/semantics-wasm/go.mod: k8s.io/apiextensions-apiserver is $have, versions.env wants $want" >&2
  exit 1
fi
mkdir -p "$out"
cd "$here"
flags=(-trimpath -ldflags=-s\ -w)
GOOS=wasip1 GOARCH=wasm go build "${flags[@]}" -buildmode=c-shared -o "$out/semantics.wasm" .
go build "${flags[@]}" -o "$out/semantics-$(go env GOOS)-$(go env GOARCH)" .
ls -l "$out"
