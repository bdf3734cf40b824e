#!/bin/bash
# copy-kernel-objs.sh - start a kernel object tree from a copy of another,
# so that kbuild rebuilds only what differs instead of everything.
#
# usage: copy-kernel-objs.sh FROM-OBJ TO-OBJ [FROM-SRC TO-SRC]
#
# Kbuild decides per object: fixdep records the files and CONFIG_ symbols
# each object depends on, and the exact command that built it.  A copy is
# therefore as good as a build of its own once the absolute paths it
# records are made to name the copy (and TO-SRC, when the copy is to be
# built from another source tree, e.g. one that carries fewer patches):
# left as they are, make sees changed commands and rebuilds objtool and,
# with it, every object.  mtimes are kept (cp -a), so sources older than
# their objects stay built.  TO-OBJ is replaced.
set -eu
from=${1:?usage: copy-kernel-objs.sh FROM-OBJ TO-OBJ [FROM-SRC TO-SRC]}
to=${2:?usage: copy-kernel-objs.sh FROM-OBJ TO-OBJ [FROM-SRC TO-SRC]}
from_src=${3:-}
to_src=${4:-}

[ -f "$from/.config" ] || { echo "copy-kernel-objs: no kernel objects in $from" >&2; exit 1; }
from=$(cd "$from" && pwd)
rm -rf "$to"
mkdir -p "$(dirname "$to")"
cp -a "$from" "$to"
to=$(cd "$to" && pwd)
expr="s|$from|$to|g"
[ -z "$from_src" ] || expr="$expr;s|$from_src|$to_src|g"
grep -rlZ --include='*.cmd' --include='*.d' -F -e "$from" ${from_src:+-e "$from_src"} "$to" |
	xargs -0 -r sed -i "$expr"
# (the "source" link and the Makefile in TO-OBJ are made anew by every make O=)
