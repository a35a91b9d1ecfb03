# shellcheck shell=bash
# Sourced by the scripts that measure warsim binaries (flat-cost.sh, instructions.sh,
# shuffle-share.sh).
#
# compared_binaries USAGE ARG...: sets `bins` to the binaries named by the ARGs left after the
# script's own options, or to a fresh release build (target/release/warsim) when none is; an
# ARG that looks like an option prints USAGE and exits 2.
compared_binaries() {
  local usage=$1
  shift
  bins=()
  for arg in "$@"; do
    case "$arg" in
      -*) echo "usage: $usage" >&2; exit 2 ;;
      *) bins+=("$arg") ;;
    esac
  done
  if [ ${#bins[@]} -eq 0 ]; then
    cargo build --release >&2
    bins=(target/release/warsim)
  fi
}
