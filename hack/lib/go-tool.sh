# Sourced by the hack/<tool>/build.sh scripts that build a Go tool from the module proxy into
# a cache outside the repository (~/.cache/opgen/tools/<tool>-<version>/<tool>): the cache
# check, --print, the build lock and the module file are the same for every tool.

# go_tool_start NAME VERSION [--print] [SOURCE_HASH]
# Sets tool, dir, binary and work. Prints the binary's path and exits 0 when it is built (and,
# with SOURCE_HASH, built from those sources); with --print, says what is missing and exits 1.
# Otherwise takes the build lock: two test runs that find the cache empty at once must not
# build into one module directory together, so the second waits and then finds the binary.
go_tool_start() {
  tool=$1
  tool_version=$2
  tool_hash=${4:-}
  local cache_root=${OPGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opgen}
  dir="$cache_root/tools/$tool-$tool_version"
  binary="$dir/$tool"
  work="$cache_root/tools/build-$tool-$tool_version"
  go_tool_done_if_built
  if [[ ${3:-} == --print ]]; then
    echo "$tool: $binary is missing; run hack/$tool/build.sh" >&2
    exit 1
  fi
  command -v go >/dev/null || {
    echo "$tool: no Go toolchain to build $tool $tool_version; install Go, or put a $tool binary at $binary" >&2
    exit 1
  }
  mkdir -p "$work" "$dir"
  if command -v flock >/dev/null; then
    exec 9>"$work/.lock"
    if ! flock -n 9; then
      log "waiting for another build of $tool $tool_version to finish"
      flock 9
    fi
    go_tool_done_if_built
  fi
  export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0
}

go_tool_done_if_built() {
  if [[ -x "$binary" && ( -z $tool_hash || "$(cat "$dir/source.sha256" 2>/dev/null)" == "$tool_hash" ) ]]; then
    echo "$binary"
    exit 0
  fi
}

log() { echo "$tool: $*" >&2; }

# go_tool_require MODULE VERSION
# Writes the build's go.mod requiring MODULE alone at VERSION, with the go line of MODULE's own
# go.mod, so module selection takes the versions that module pins.
go_tool_require() {
  log "resolving $1 v$2"
  local upstream_mod
  upstream_mod=$(cd "$work" && go mod download -json "$1@v$2" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
  cat >"$work/go.mod" <<MOD
module opgen.local/$tool

go $(sed -n 's/^go //p' "$upstream_mod")

require $1 v$2
MOD
  build_start=$(date +%s)
}

# go_tool_finish: moves the binary go build wrote to $binary.tmp into place and prints its path.
go_tool_finish() {
  mv "$binary.tmp" "$binary"
  if [[ -n $tool_hash ]]; then echo "$tool_hash" >"$dir/source.sha256"; fi
  log "built $tool $tool_version in $(($(date +%s) - build_start)) s"
  echo "$binary"
}
