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
source "$(dirname "${BASH_SOURCE[0]}")/../lib/go-tool.sh"

PROMETHEUS_VERSION=${PROMETHEUS_VERSION:-0.316.0}
go_tool_start prometheus "$PROMETHEUS_VERSION" "${1:-}"
go_tool_require github.com/prometheus/prometheus "$PROMETHEUS_VERSION"
log "building prometheus v$PROMETHEUS_VERSION without service discovery plugins (cold: six to twelve minutes)"
(cd "$work" && go build -trimpath -tags remove_all_sd \
  -ldflags "-s -w -X github.com/prometheus/common/version.Version=$PROMETHEUS_VERSION" \
  -o "$binary.tmp" github.com/prometheus/prometheus/cmd/prometheus)
go_tool_finish
