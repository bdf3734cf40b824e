#!/bin/bash
# install-deps.sh - install the Debian packages the project needs, only those missing.
#
# usage: install-deps.sh [PACKAGE...]   (the packages named too: make bench
# names valgrind, which only its tests/bench/cmdlines uses)
#
# Idempotent: asks dpkg which packages are installed and calls apt-get only for
# the missing ones, saying which. Needs root (the README's set-up runs as root).
#
# prometheus brings promtool (make check tests the alert rules with it) and the
# server tests/guest/prometheus.test starts on 127.0.0.1 for itself. On a host
# run by systemd, Debian's package also enables its own prometheus.service
# (port 9090); the tests do not use it.
set -eu

PACKAGES="
linux-source-6.1
linux-source-6.12
qemu-system-x86
libtracefs-dev
libtraceevent-dev
libzstd-dev
zlib1g-dev
trace-cmd
busybox-static
gcc
make
flex
bison
bc
libelf-dev
libssl-dev
cpio
xz-utils
python3
python3-matplotlib
libcunit1-dev
clang
libclang-rt-14-dev
pkg-config
prometheus
dpkg-dev
debhelper
dh-python
lintian
fakeroot
kmod
rsync
linux-config-6.1
file
man-db
$*
"

missing=""
for pkg in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $pkg"
	fi
done

if [ -z "$missing" ]; then
	exit 0
fi

echo "install-deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: need root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "install-deps: done"
