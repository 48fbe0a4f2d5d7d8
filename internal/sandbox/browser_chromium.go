package sandbox

import (
	"os"
	"path/filepath"
)

// chromiumArgs are the switches of a Chromium started on the test desktop
// in profile, and writes the profile's preferences. Each switch says why.
// On a Wayland desktop it is a Wayland client, else an X11 one.
func chromiumArgs(profile string, root, wayland bool) ([]string, error) {
	if err := writeChromiumPreferences(profile); err != nil {
		return nil, err
	}
	args := []string{
		// The web content's tree is on the bus only with this switch;
		// without it the bus holds the frame alone.
		"--force-renderer-accessibility",
		"--user-data-dir=" + profile,
		// The desktop's own display server, never a guess (on Xvfb,
		// Chromium would otherwise try Wayland first).
		ozonePlatform(wayland),
		// No welcome page, default-browser question or sync promotion.
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-sync",
		// No GPU in Xvfb; software rendering without trying one.
		"--disable-gpu",
		// Containers often give /dev/shm 64 MB, too little for Chromium's
		// shared memory; files in /tmp serve the same purpose.
		"--disable-dev-shm-usage",
		// No keyring on the test desktop: without this Chromium may wait
		// for one or ask for a keyring password.
		"--password-store=basic",
		// A fixed window so measurements and below-the-fold checks repeat.
		"--window-size=1280,800",
		"--window-position=0,0",
		// No crash-restore bubble after a killed run, no translation
		// bar, no background fetches from a machine without internet.
		"--hide-crash-restore-bubble",
		"--disable-features=Translate,MediaRouter,OptimizationHints",
		"--disable-background-networking",
		"--disable-component-update",
		"--noerrdialogs",
	}
	if root {
		// Chromium refuses to run as root with its sandbox on; --test-type
		// hides the bar that then warns of an unsupported switch (it
		// would be read as part of the window).
		args = append(args, "--no-sandbox", "--test-type")
	}
	return args, nil
}

// chromiumPreferences turn off the offers Chromium makes after a form is
// submitted (save the password, translate the page), which open bubbles of
// their own. They are the profile's Preferences, written before the first
// start.
const chromiumPreferences = `{
  "credentials_enable_service": false,
  "profile": {"password_manager_enabled": false},
  "translate": {"enabled": false},
  "browser": {"has_seen_welcome_page": true, "check_default_browser": false}
}
`

func writeChromiumPreferences(profile string) error {
	dir := filepath.Join(profile, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "Preferences"), []byte(chromiumPreferences), 0o600)
}

// ozonePlatform is Chromium's switch for the desktop's display server.
func ozonePlatform(wayland bool) string {
	if wayland {
		return ozoneWayland
	}
	return "--ozone-platform=x11"
}
