package sandbox

import (
	"os/exec"
	"path/filepath"
	"strings"
)

// accessibilityVars are the environment switches each toolkit reads before
// it exposes its tree on the AT-SPI bus. Every program started on the
// desktop gets them (they are part of Env), and `nish-driver sandbox`
// prints them for programs a person starts by hand.
var accessibilityVars = map[string]string{
	// Chromium and Electron register on the bus (their web content still
	// needs --force-renderer-accessibility, see AccessibleArgs).
	"ACCESSIBILITY_ENABLED": "1",
	// Firefox and Thunderbird (Gecko); Chromium reads it too.
	"GNOME_ACCESSIBILITY": "1",
	// Qt 5 apps.
	"QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
	// LibreOffice (with its GTK plugin).
	"SAL_ACCESSIBILITY_ENABLED": "1",
}

// forceRendererAccessibility is the switch without which a Chromium-family
// program puts only its frame on the bus, not the page or app inside it.
const forceRendererAccessibility = "--force-renderer-accessibility"

// chromiumFamily are the program names (the command's base name) known to
// run on Chromium's engine: the browsers, and Electron apps.
var chromiumFamily = map[string]bool{
	"chromium": true, "chromium-browser": true, "chrome": true,
	"google-chrome": true, "google-chrome-stable": true, "google-chrome-beta": true,
	"google-chrome-unstable": true, "brave-browser": true, "microsoft-edge": true,
	"microsoft-edge-stable": true, "vivaldi": true, "vivaldi-stable": true, "opera": true,
	"electron": true, "code": true, "code-insiders": true, "codium": true,
	"slack": true, "discord": true, "teams": true, "teams-for-linux": true,
	"signal-desktop": true, "obsidian": true, "element-desktop": true,
}

// IsChromiumFamily reports whether program (a path or a name) is a
// Chromium-family program: one of the known names, or any name starting
// with "electron" (electron25, electron-app...).
func IsChromiumFamily(program string) bool {
	name := filepath.Base(program)
	return chromiumFamily[name] || strings.HasPrefix(name, "electron")
}

// AccessibleArgs returns argv with the command-line switch its toolkit
// needs to expose its tree: --force-renderer-accessibility for a
// Chromium-family program (placed first, before any URL, file or "--"),
// unless argv already has it in any form. Other command lines come back
// unchanged; argv itself is never modified.
func AccessibleArgs(argv []string) []string {
	out := append([]string(nil), argv...)
	if len(argv) == 0 || !IsChromiumFamily(argv[0]) {
		return out
	}
	if hasSwitch(argv, forceRendererAccessibility) {
		return out
	}
	return append([]string{argv[0], forceRendererAccessibility}, argv[1:]...)
}

// AppCommand prepares a program a person asked for (argv[0] and its
// arguments) to run on this desktop with its accessibility tree exposed:
// Command, after AccessibleArgs. argv must not be empty.
func (d *Desktop) AppCommand(argv []string) *exec.Cmd {
	argv = AccessibleArgs(argv)
	if d.Wayland != "" && IsChromiumFamily(argv[0]) && !hasSwitch(argv, "--ozone-platform") {
		// A Chromium-family program is an X11 client unless told.
		argv = append([]string{argv[0], ozoneWayland}, argv[1:]...)
	}
	return d.Command(argv[0], argv[1:]...)
}

// hasSwitch reports whether argv's arguments hold the switch, alone or
// with a value.
func hasSwitch(argv []string, name string) bool {
	for _, a := range argv[1:] {
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}
