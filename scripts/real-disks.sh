#!/usr/bin/env bash
# Runs that fill real disks (tests/real_disks.rs, run by .ci/run): a tmpfs, and ext4, XFS and
# btrfs file systems in image files on loop devices, each filled by a run whose per-game files
# must end whole. Needs root (to mount them); installs xfsprogs and btrfs-progs with apt-get when
# their mkfs is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
  echo "error: scripts/real-disks.sh needs root, to mount the file systems it fills" >&2
  exit 2
fi
missing=()
command -v mkfs.ext4 > /dev/null || missing+=(e2fsprogs)
command -v mkfs.xfs > /dev/null || missing+=(xfsprogs)
command -v mkfs.btrfs > /dev/null || missing+=(btrfs-progs)
# shellcheck source=scripts/packages.sh
. scripts/packages.sh
install_missing scripts/real-disks.sh "${missing[@]}"
cargo test --test integration real_disks:: -- --ignored
