# shellcheck shell=bash
# Sourced by the scripts that need Debian packages (durability.sh, real-disks.sh, aarch64.sh,
# slurm/cluster.sh): one way to get what is missing, and one message when it cannot be got.
#
# install_missing SCRIPT PACKAGE...: installs the PACKAGEs with apt-get when any are named (a
# script names those whose command or file it lacks), as root on a system that has apt-get;
# otherwise says which SCRIPT needs and exits 2.
install_missing() {
  local script=$1
  shift
  [ $# -gt 0 ] || return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    apt-get install -y -q "$@" > /dev/null
  else
    echo "error: $script needs $* (Debian's packages: apt-get install $*, as root)" >&2
    exit 2
  fi
}
