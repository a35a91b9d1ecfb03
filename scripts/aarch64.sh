#!/usr/bin/env bash
# Builds warsim for 64-bit ARM Linux (aarch64-unknown-linux-gnu) and runs its tests there under
# QEMU's user-mode emulation: the portable paths every SIMD kernel falls back on, on a processor
# that has none of them, with clippy's warnings as errors for that target. Not part of .ci/run
# (about 25 minutes on the 2-core machine, most of it the emulated tests).
#
# Usage: scripts/aarch64.sh [--lib] [TEST FILTER...]
#   --lib    only the library's unit tests (about 2 minutes once built)
# Needs root (to register the emulator with the kernel, so the tests' child processes run too);
# installs qemu-user, the cross linker and ARM's C library with apt-get, and the target's
# standard library with rustup, when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
target=aarch64-unknown-linux-gnu
sysroot=/usr/aarch64-linux-gnu
if [ "$(id -u)" != 0 ]; then
  echo "error: scripts/aarch64.sh needs root, to register qemu-aarch64 for ARM executables" >&2
  exit 2
fi
lib_only=0
filters=()
for arg in "$@"; do
  case "$arg" in
    --lib) lib_only=1 ;;
    -*) echo "usage: scripts/aarch64.sh [--lib] [TEST FILTER...]" >&2; exit 2 ;;
    *) filters+=("$arg") ;;
  esac
done

missing=()
command -v qemu-aarch64 > /dev/null || missing+=(qemu-user qemu-user-binfmt)
command -v aarch64-linux-gnu-gcc > /dev/null || missing+=(gcc-aarch64-linux-gnu)
[ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] || missing+=(libc6-dev-arm64-cross)
# shellcheck source=scripts/packages.sh
. scripts/packages.sh
install_missing scripts/aarch64.sh "${missing[@]}"
rustup target list --installed | grep -qx "$target" || rustup target add "$target"

# The integration tests start warsim as a child process: the kernel must hand ARM executables
# to the emulator itself (binfmt_misc), with the ARM C library as their root for libraries.
binfmt=/proc/sys/fs/binfmt_misc
[ -e "$binfmt/register" ] || mount binfmt_misc -t binfmt_misc "$binfmt"
[ -e "$binfmt/qemu-aarch64" ] || cat /usr/lib/binfmt.d/qemu-aarch64.conf > "$binfmt/register"
export QEMU_LD_PREFIX=$sysroot
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc

# Tests the emulator fails, not warsim (each passes natively, and warsim's own behaviour was
# checked by hand under QEMU 7.2): QEMU reserves 128 MiB for its translated code, which the
# address-space limits of the thread tests refuse; it starts threads of its own, which their
# thread limits refuse and which show in their thread lists; and a file-size limit's SIGXFSZ
# ends it (exit 153) where warsim ignores that signal, when a worker thread's write meets it.
skips=(
  --skip threads::
  --skip enumerate_checkpoints::a_checkpoint_that_cannot_be_written_stops_play_and_says
  --skip enumerate_checkpoints::a_stopped_enumeration_whose_state_cannot_be_written_says
)
cargo clippy --target "$target" --all-targets -- -D warnings
if [ "$lib_only" = 1 ]; then
  cargo test --target "$target" --lib -- "${filters[@]}"
else
  cargo test --target "$target" -- "${skips[@]}" "${filters[@]}"
fi
