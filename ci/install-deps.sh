#!/usr/bin/env bash
# Makes sure everything `make test` needs is on this machine, and fails loudly
# when something is missing and cannot be installed. It never lets a test run
# without a tool it needs: a missing tool is an error, not a skip.
#
# On Debian (12 is the reference system), run as root, it installs the missing
# Debian packages of DEBIAN_PACKAGES with one `apt-get update` first (and only
# when something is missing). Not root, it prints the exact command to run and
# fails. Go and Node are not Debian packages here: Debian 12's are too old, so
# the script checks them and says where to get them.
#
# Add a package to DEBIAN_PACKAGES when a test starts needing it, with the
# command or header it provides in REQUIRED_COMMANDS when there is one.
set -euo pipefail

# Debian packages the build and tests need.
#   gcc, libc6-dev   cgo, which `go test -race` needs
#   make, git        the Makefile itself, and `git describe` for the version
#   ca-certificates  HTTPS to the Go module proxy and the npm registry
DEBIAN_PACKAGES=(
  ca-certificates
  gcc
  git
  libc6-dev
  make
  # The private test desktop (internal/sandbox): Xvfb with its core
  # fonts, a session bus, gdbus, and the AT-SPI bus.
  xvfb
  xauth
  xfonts-base
  dbus
  dbus-x11
  libglib2.0-bin
  at-spi2-core
  # cgo headers and libraries of native/xlib and native/atspi.
  pkg-config
  libx11-dev
  libxtst-dev
  libxi-dev
  libxext-dev
  libxres-dev
  libxcomposite-dev
  libxrandr-dev
  libatspi2.0-dev
  # Fixtures and the pyatspi baseline: GTK3 from Python, real apps.
  python3-gi
  gir1.2-gtk-3.0
  python3-pyatspi
  gtk-3-examples
  mousepad
  gedit
  gnome-calculator
  zenity
  x11-utils
  # The browsers: Chromium stands for Chrome and every Electron
  # app, Firefox ESR for Gecko; both open the local fixture page
  # native/atspi/testdata/web/form.html on the test desktop
  # (sandbox.BrowserCommand). The page names DejaVu Sans, so text has the
  # same metrics on every machine.
  chromium
  firefox-esr
  fonts-dejavu-core
  # Everyday apps, part 2: KeePassXC and FeatherPad are the Qt 5
  # apps (keepassxc-cli makes their .kdbx fixture); LibreOffice Calc and
  # Writer with the GTK 3 interface, without which LibreOffice exposes no
  # tree (sandbox.OfficeCommand; fixtures are converted by soffice
  # --headless). Together about 123 MB to download, 409 MB installed, and
  # under a minute to install from a Debian mirror.
  keepassxc
  featherpad
  libreoffice-calc
  libreoffice-writer
  libreoffice-gtk3
  # Thunderbird (Gecko, as Firefox): its three-pane window on a local
  # folder of 1,000 messages and its compose window
  # (sandbox.ThunderbirdCommand; the mbox is written at test time by
  # internal/testkit/desktop). Debian 12 ships it from bookworm-security.
  thunderbird
  # The Wayland lane of the test desktop (internal/sandbox/wayland.go):
  # mutter headless as the compositor, Xwayland for X11 apps and the
  # consent dialog, PipeWire and WirePlumber for its screen casts (and
  # libpipewire's headers for the capture), Qt's Wayland plugin, and
  # GTK 4 for the Wayland fixtures.
  mutter
  xwayland
  pipewire
  wireplumber
  libpipewire-0.3-dev
  qtwayland5
  gir1.2-gtk-4.0
  # The sway lane of the Wayland test desktop (internal/sandbox/
  # wayland_sway.go): sway 1.7 on wlroots' headless backend stands for the
  # wlroots desktops; swaymsg comes with it.
  sway
  # A second clipboard client for the clipboard tests (native/xlib).
  xclip
  # xrandr splits the test screen into monitors (--setmonitor) for the
  # tests of several monitors (native/xlib, native).
  x11-xserver-utils
  # The Debian package and its clean-install test (make deb,
  # ci/deb-install-test.sh): dpkg-shlibdeps computes Depends, lintian
  # checks the package, man finds the page, systemd-analyze checks the
  # user unit.
  dpkg-dev
  lintian
  man-db
  systemd
)

# Commands that must be on PATH once the packages above are installed.
REQUIRED_COMMANDS=(gcc git make Xvfb mutter sway swaymsg Xwayland pipewire wireplumber busctl xrandr xprop dbus-daemon gdbus chromium firefox-esr keepassxc keepassxc-cli featherpad soffice thunderbird pkg-config dpkg-shlibdeps lintian man systemd-analyze unshare)

# Minimum tool versions (major only for Node; Go's own toolchain switch
# handles go.mod's exact version when the installed Go is older).
MIN_NODE_MAJOR=20
MIN_GO_MINOR=22 # go1.22 understands toolchain lines and fetches newer ones

failures=()

fail() { failures+=("$1"); }

missing_debian_packages() {
  local pkg status
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    if [ "$status" != "install ok installed" ]; then
      printf '%s\n' "$pkg"
    fi
  done
}

install_debian_packages() {
  local missing
  mapfile -t missing < <(missing_debian_packages)
  if [ "${#missing[@]}" -eq 0 ]; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing Debian packages: ${missing[*]}" >&2
    echo "install-deps: run:  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    fail "Debian packages missing (not root, so not installed): ${missing[*]}"
    return 0
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
  mapfile -t missing < <(missing_debian_packages)
  if [ "${#missing[@]}" -ne 0 ]; then
    fail "apt-get could not install: ${missing[*]}"
  fi
}

check_commands() {
  local cmd
  for cmd in "${REQUIRED_COMMANDS[@]}"; do
    command -v "$cmd" >/dev/null 2>&1 || fail "command '$cmd' not found on PATH"
  done
}

check_go() {
  if ! command -v go >/dev/null 2>&1; then
    fail "go not found on PATH; install Go from https://go.dev/dl/ and put its bin/ on PATH"
    return 0
  fi
  local v minor
  v=$(go env GOVERSION 2>/dev/null || true) # e.g. go1.26.8
  minor=$(printf '%s' "$v" | sed -n 's/^go1\.\([0-9][0-9]*\).*/\1/p')
  if [ -z "$minor" ] || [ "$minor" -lt "$MIN_GO_MINOR" ]; then
    fail "go is '$v'; need go1.$MIN_GO_MINOR or newer (go.mod names the exact toolchain)"
  fi
  if [ "$(go env CGO_ENABLED)" != "1" ]; then
    fail "cgo is disabled (go env CGO_ENABLED is not 1); go test -race needs it: unset CGO_ENABLED"
  fi
}

check_node() {
  if ! command -v node >/dev/null 2>&1; then
    fail "node not found on PATH; install Node.js $MIN_NODE_MAJOR or newer (https://nodejs.org/)"
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    fail "npm not found on PATH; it ships with Node.js $MIN_NODE_MAJOR or newer"
  fi
  local v major
  v=$(node --version 2>/dev/null || true) # e.g. v20.20.2
  major=$(printf '%s' "$v" | sed -n 's/^v\([0-9][0-9]*\)\..*/\1/p')
  if [ -z "$major" ] || [ "$major" -lt "$MIN_NODE_MAJOR" ]; then
    fail "node is '$v'; need Node.js $MIN_NODE_MAJOR or newer"
  fi
}

if command -v dpkg-query >/dev/null 2>&1; then
  install_debian_packages
else
  echo "install-deps: not a Debian system; make sure the equivalents of these are installed: ${DEBIAN_PACKAGES[*]}" >&2
fi
check_commands
check_go
check_node

if [ "${#failures[@]}" -ne 0 ]; then
  echo "install-deps: FAILED" >&2
  for f in "${failures[@]}"; do
    echo "  - $f" >&2
  done
  exit 1
fi
echo "install-deps: ok (go $(go env GOVERSION | sed 's/^go//'), node $(node --version | sed 's/^v//'), npm $(npm --version))"
