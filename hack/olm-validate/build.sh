#!/usr/bin/env bash
# Builds hack/olm-validate (operator-framework/api's default bundle validators behind a small
# main) from Go modules through the module proxy, into a cache outside the repository, for the
# test that checks `opgen bundle` output with OLM's own validation. Prints the path of the
# binary on stdout; progress goes to stderr.
#
#   hack/olm-validate/build.sh            build if the cache lacks it
#   hack/olm-validate/build.sh --print    print the path if it is built, else say so and exit 1
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../lib/go-tool.sh"

API_VERSION=${OLM_API_VERSION:-0.30.0}
# The main's content is part of the cache key: an edited main.go is rebuilt.
go_tool_start olm-validate "$API_VERSION" "${1:-}" "$(sha256sum "$here/main.go" | cut -d' ' -f1)"
go_tool_require github.com/operator-framework/api "$API_VERSION"
cp "$here/main.go" "$work/main.go"
log "building olm-validate with operator-framework/api v$API_VERSION (cold: a few minutes)"
(cd "$work" && go build -trimpath -ldflags "-s -w" -o "$binary.tmp" .)
go_tool_finish
