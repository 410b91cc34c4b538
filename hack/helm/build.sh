#!/usr/bin/env bash
# Builds the helm CLI from Go modules through the module proxy, into a cache outside the
# repository, for the tests of the charts `opgen edit --plugins helm` writes and of
# chart-backed operators. Prints the path of the binary on stdout; progress goes to stderr.
#
#   hack/helm/build.sh            build if the cache lacks it
#   hack/helm/build.sh --print    print the path if it is built, else say so and exit 1
#
# Helm 4 because it is the line users run in late 2026: Helm 3 got its last (limited)
# release in September 2026 and only security fixes until February 2027. The charts opgen
# writes (apiVersion v2) work with both.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/go-tool.sh"

HELM_VERSION=${HELM_VERSION:-4.3.1}
go_tool_start helm "$HELM_VERSION" "${1:-}"
go_tool_require helm.sh/helm/v4 "$HELM_VERSION"
log "building helm v$HELM_VERSION (cold: about ten minutes)"
(cd "$work" && go build -trimpath \
  -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=v$HELM_VERSION -X helm.sh/helm/v4/internal/version.gitTreeState=clean" \
  -o "$binary.tmp" helm.sh/helm/v4/cmd/helm)
go_tool_finish
