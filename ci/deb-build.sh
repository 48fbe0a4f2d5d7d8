#!/usr/bin/env bash
# `make deb`: builds the Debian package bin/deb/nish-driver_VERSION_ARCH.deb
# from this checkout and checks it with lintian (any error fails the build).
#
# The package holds the binary, nish-driver(1) generated from the binary's
# own command line, the systemd user unit for the daemon, the README, a
# machine-readable copyright file listing every linked Go module, and a
# changelog. Depends is computed by dpkg-shlibdeps from the libraries the
# binary links, so it cannot miss one.
#
# Builds are reproducible: the version and every date come from git (the
# commit's time is SOURCE_DATE_EPOCH), and the tree is owned by root.
# Set DEB_MAINTAINER to override the Maintainer field.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

die() { echo "deb-build: $*" >&2; exit 1; }
for tool in go dpkg-deb dpkg-shlibdeps lintian gzip; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (ci/install-deps.sh installs it)"
done

describe=$(git describe --always --dirty 2>/dev/null) || die "needs a git checkout: the version comes from git describe"
version=$(ci/deb-version.sh)
arch=$(dpkg --print-architecture)
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
export SOURCE_DATE_EPOCH
maintainer=${DEB_MAINTAINER:-"nish-driver maintainers <maintainers@users.noreply.a-seed-8c91df30.example>"}

work=$(mktemp -d)
trap 'rm -rf --one-file-system "$work"' EXIT
root=$work/root
doc=$root/usr/share/doc/nish-driver
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$doc" "$root/usr/lib/systemd/user" \
  "$root/usr/share/lintian/overrides"

echo "deb-build: nish-driver $version ($arch), from $describe"

# The binary: stripped (-s -w; lintian refuses unstripped binaries), built
# as a position-independent executable with full RELRO, source paths
# trimmed so the build does not depend on where the checkout is.
CGO_ENABLED=1 \
  CGO_CFLAGS="${CGO_CFLAGS:-"-O2 -g -fstack-protector-strong -D_FORTIFY_SOURCE=2"}" \
  go build -trimpath -buildmode=pie \
  -ldflags "-s -w -linkmode=external -extldflags=-Wl,-z,relro,-z,now -X github.com/nish-driver/nish-driver/engine.DriverVersion=$describe" \
  -o "$root/usr/bin/nish-driver" ./cmd/nish-driver

# The manual page, from the binary's own command line model.
"$root/usr/bin/nish-driver" manpage >"$root/usr/share/man/man1/nish-driver.1"
gzip -9n "$root/usr/share/man/man1/nish-driver.1"

install -m 0644 packaging/nish-driver.service "$root/usr/lib/systemd/user/nish-driver.service"
install -m 0644 README.md "$doc/README.md"
install -m 0644 packaging/lintian-overrides "$root/usr/share/lintian/overrides/nish-driver"
go run ./ci/gencopyright -head packaging/copyright.head -binary "$root/usr/bin/nish-driver" >"$doc/copyright"

changelog_date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
cat >"$work/changelog.Debian" <<CHANGELOG
nish-driver ($version) unstable; urgency=medium

  * Built from git commit $describe.

 -- $maintainer  $changelog_date
CHANGELOG
gzip -9n -c "$work/changelog.Debian" >"$doc/changelog.Debian.gz"

# Depends: dpkg-shlibdeps maps each library the binary links to the package
# that ships it, with the minimum version of the symbols used. It wants a
# debian/control naming the package, so it runs in a scratch source tree.
mkdir -p "$work/src/debian"
printf 'Source: nish-driver\n\nPackage: nish-driver\nArchitecture: any\n' >"$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O -e"$root/usr/bin/nish-driver" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
  -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@DEPENDS@|$depends|" \
  packaging/control.in >"$root/DEBIAN/control"
if grep -q '@[A-Z_]*@' "$root/DEBIAN/control"; then
  die "packaging/control.in has a placeholder this script does not fill"
fi
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"

chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

out=bin/deb
rm -rf "$out"
mkdir -p "$out"
deb="$out/nish-driver_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "deb-build: built $deb"

echo "deb-build: lintian $deb"
lintian --fail-on error --info "$deb"
echo "deb-build: lintian found no errors"
