#!/usr/bin/env bash
# The Debian package's clean-install test (a step of `make test`): builds
# the package with `make deb` (which runs lintian), installs it into a
# throwaway copy of this machine, and checks it there:
#   - dpkg installs it (so every Depends is a package that is installed),
#   - `nish-driver version` runs, and `nish-driver doctor --json` without a
#     display exits 1 with a report that validates against the doctor
#     schema and names display_unreachable (ci/checkdoctor),
#   - `man nish-driver` finds and renders the page,
#   - `systemd-analyze --user verify` accepts the unit, with no message, and
#     the binary knows the command the unit runs,
#   - the package purges without leaving its files.
#
# The throwaway copy: in a private mount namespace (unshare), an overlay
# whose lower layer is / and whose upper layer is a tmpfs is mounted and
# chrooted into. Everything dpkg writes lands in the tmpfs and vanishes with
# the namespace; the machine itself is never changed. This needs root (CI
# runs as root); in a container, CAP_SYS_ADMIN (docker run --privileged).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "deb-install-test: $*" >&2; exit 1; }

# in_root runs a command inside the throwaway root with a clean environment:
# no DISPLAY, no session bus, so the doctor sees a machine without a desktop.
in_root() {
  chroot "$merged" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    XDG_STATE_HOME=/tmp/state XDG_RUNTIME_DIR=/tmp/runtime "$@"
}

# inside is the part that runs in the private mount namespace.
inside() {
  local work=$1 deb=$2
  merged=$work/overlay/root
  mount -t tmpfs -o mode=0755 nish-deb-test "$work/overlay"
  mkdir "$work/overlay/upper" "$work/overlay/work" "$merged"
  mount -t overlay overlay -o "lowerdir=/,upperdir=$work/overlay/upper,workdir=$work/overlay/work" "$merged"
  local d
  for d in proc sys dev; do
    mount --rbind "/$d" "$merged/$d"
  done
  mount -t tmpfs -o mode=1777 tmp "$merged/tmp"
  mkdir -p "$merged/nish-deb-test"
  mount --bind "$work/out" "$merged/nish-deb-test"
  mkdir -m 0700 "$merged/tmp/runtime"

  if in_root dpkg-query -W nish-driver >/dev/null 2>&1; then
    echo "deb-install-test: this machine has nish-driver installed; purging it in the throwaway root first"
    in_root dpkg --purge nish-driver >/dev/null
  fi
  in_root test ! -e /usr/bin/nish-driver || die "/usr/bin/nish-driver exists before the install"

  echo "deb-install-test: dpkg -i $(basename "$deb")"
  in_root dpkg -i "/nish-deb-test/$(basename "$deb")"
  local status
  status=$(in_root dpkg-query -W -f='${Status}' nish-driver)
  [ "$status" = "install ok installed" ] || die "dpkg says '$status'"

  in_root nish-driver version

  local rc=0
  in_root nish-driver doctor --json >"$work/out/doctor.json" 2>"$work/out/doctor.err" || rc=$?
  [ "$rc" -eq 1 ] || die "nish-driver doctor --json without a display exited $rc, want 1: $(cat "$work/out/doctor.err")"

  local page
  page=$(in_root man -w nish-driver) || die "man -w nish-driver found no page"
  [ "$page" = /usr/share/man/man1/nish-driver.1.gz ] || die "man -w nish-driver gave $page"
  in_root env MANPAGER=cat MANWIDTH=80 man nish-driver >"$work/out/man.txt" 2>"$work/out/man.err" ||
    die "man nish-driver failed: $(cat "$work/out/man.err")"
  grep -q 'nish-driver doctor' "$work/out/man.txt" || die "man nish-driver does not show the doctor command"

  local unit=/usr/lib/systemd/user/nish-driver.service
  in_root dpkg -L nish-driver | grep -qx "$unit" || die "the package does not list $unit"
  # The unit's command must be one the binary knows (systemd only checks
  # that the file is executable).
  local exec_start
  exec_start=$(in_root sed -n 's/^ExecStart=//p' "$unit")
  in_root $exec_start --help >/dev/null || die "the unit's command '$exec_start' is not one nish-driver knows"
  in_root systemd-analyze --user verify "$unit" >"$work/out/verify.txt" 2>&1 ||
    die "systemd-analyze --user verify $unit failed: $(cat "$work/out/verify.txt")"
  [ ! -s "$work/out/verify.txt" ] || die "systemd-analyze --user verify $unit warns: $(cat "$work/out/verify.txt")"

  in_root dpkg --purge nish-driver >/dev/null
  for f in /usr/bin/nish-driver "$unit" /usr/share/man/man1/nish-driver.1.gz /usr/share/doc/nish-driver; do
    in_root test ! -e "$f" || die "$f is left after dpkg --purge"
  done
}

if [ "${1:-}" = --inside ]; then
  shift
  inside "$@"
  exit 0
fi

[ "$(id -u)" -eq 0 ] || die "needs root to mount the throwaway root (CI runs as root)"
for tool in unshare chroot mount; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing"
done

make --no-print-directory deb
debs=(bin/deb/*.deb)
[ "${#debs[@]}" -eq 1 ] && [ -f "${debs[0]}" ] || die "make deb left ${#debs[@]} packages in bin/deb"
deb=${debs[0]}

work=$(mktemp -d)
trap 'rm -rf --one-file-system "$work"' EXIT
mkdir "$work/overlay" "$work/out"
cp "$deb" "$work/out/"

unshare --mount --propagation private -- "$0" --inside "$work" "$deb" ||
  die "the install test failed (in a container it needs CAP_SYS_ADMIN: docker run --privileged)"

go run ./ci/checkdoctor -ready=false -reason x11=display_unreachable <"$work/out/doctor.json"
echo "deb-install-test: $deb installs, runs the doctor, has its manual page and unit, and purges cleanly"
