#!/usr/bin/env bash
# Prints the Debian version of the package built from this checkout, made
# from `git describe --always --dirty` (the version stamped into the binary)
# so the two always agree:
#
#   v1.2.0                      1.2.0-1
#   v1.2.0-rc1                  1.2.0~rc1-1        (~ sorts before 1.2.0)
#   v1.2.0-4-gabc1234           1.2.0+git4.abc1234-1
#   abc1234 (no tag yet)        0~git57.abc1234-1  (57: commits in HEAD, so
#                                                   later builds sort later)
#   any of them with -dirty     ... +dirty or .dirty before the revision
#
# Usage: ci/deb-version.sh                 (reads git)
#        ci/deb-version.sh DESCRIBE COUNT  (maps the given values; tests use it)
set -euo pipefail

if [ "$#" -eq 0 ]; then
  cd "$(dirname "$0")/.."
  describe=$(git describe --always --dirty) || { echo "deb-version: not a git checkout git can read" >&2; exit 1; }
  count=$(git rev-list --count HEAD)
elif [ "$#" -eq 2 ]; then
  describe=$1
  count=$2
else
  echo "usage: $0 [DESCRIBE COUNT]" >&2
  exit 2
fi

dirty=
if [[ $describe == *-dirty ]]; then
  dirty=yes
  describe=${describe%-dirty}
fi

# A tag's own version: no leading v, and a pre-release's hyphen becomes ~.
tag_version() {
  local t=${1#v}
  printf '%s' "${t//-/\~}"
}

if [[ $describe =~ ^(.+)-([0-9]+)-g([0-9a-f]+)$ ]]; then
  upstream="$(tag_version "${BASH_REMATCH[1]}")+git${BASH_REMATCH[2]}.${BASH_REMATCH[3]}"
elif [[ $describe =~ ^[0-9a-f]{4,40}$ ]]; then
  [[ $count =~ ^[0-9]+$ ]] || { echo "deb-version: commit count '$count' is not a number" >&2; exit 1; }
  upstream="0~git${count}.${describe}"
else
  upstream=$(tag_version "$describe")
fi

if [ -n "$dirty" ]; then
  if [[ $upstream == *+* ]]; then upstream+=".dirty"; else upstream+="+dirty"; fi
fi

# Debian policy 5.6.12: an upstream version starts with a digit and holds
# only alphanumerics and . + ~ (a hyphen only because a revision follows).
if ! [[ $upstream =~ ^[0-9][A-Za-z0-9.+~]*$ ]]; then
  echo "deb-version: '$describe' does not make a Debian version (got '$upstream'); tag releases as vX.Y.Z" >&2
  exit 1
fi
printf '%s-1\n' "$upstream"
