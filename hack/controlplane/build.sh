#!/usr/bin/env bash
# The repository's entry point to the control plane build. The script itself ships in
# @opgen/runtime (runtime/controlplane/build.sh) so installed projects can build the
# binaries without an opgen checkout; this forwards to it with the same arguments.
exec bash "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../../runtime/controlplane/build.sh" "$@"
