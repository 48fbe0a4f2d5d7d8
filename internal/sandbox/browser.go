package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Browser names a web browser the desktop can start with its accessibility
// tree exposed: the stand-ins for the web and Electron apps people use most.
type Browser int

const (
	// Chromium stands for Chrome, Edge and every Electron app: they share
	// Chromium's accessibility code and its at-spi2-atk bridge.
	Chromium Browser = iota + 1
	// Firefox is Firefox ESR (Gecko), the other engine a person may use.
	Firefox
)

// String is the browser's name as a person says it.
func (b Browser) String() string {
	switch b {
	case Chromium:
		return "Chromium"
	case Firefox:
		return "Firefox"
	}
	return fmt.Sprintf("Browser(%d)", int(b))
}

// AppName is the name the browser registers under on the AT-SPI bus (the
// name of its application object), for WaitForApp: each registers under
// the name String gives it.
func (b Browser) AppName() string {
	if b.programs() == nil {
		return ""
	}
	return b.String()
}

// programs are the commands each browser is installed as, in the order
// they are looked for on PATH (Debian's first).
func (b Browser) programs() []string {
	switch b {
	case Chromium:
		return []string{"chromium", "chromium-browser", "google-chrome"}
	case Firefox:
		return []string{"firefox-esr", "firefox"}
	}
	return nil
}

// BrowserCommand prepares a browser to open url on this desktop with its
// accessibility tree exposed, in a new empty profile under the desktop's
// private folder (removed by Close), with a 1280x800 window at the top left
// and nothing that would open a window or bar of its own on first start
// (welcome pages, default-browser questions, crash-restore bubbles,
// translation and password offers). Start it with Start; the caller owns
// its output.
//
// Chromium gets --force-renderer-accessibility (without it only the frame
// is on the bus) and --no-sandbox when run as root (Chromium refuses to
// start as root otherwise); Firefox gets GNOME_ACCESSIBILITY=1 and a
// user.js of quiet preferences (gecko.go, shared with Thunderbird).
func (d *Desktop) BrowserCommand(kind Browser, url string) (*exec.Cmd, error) {
	prog, err := kind.lookPath()
	if err != nil {
		return nil, err
	}
	if kind == Firefox {
		profile, err := d.geckoProfile("firefox", firefoxUserJS)
		if err != nil {
			return nil, err
		}
		return d.geckoCommand(prog, profile, append(firefoxArgs(), url)...), nil
	}
	profile, err := d.profile("chromium")
	if err != nil {
		return nil, err
	}
	args, err := chromiumArgs(profile, os.Geteuid() == 0, d.Wayland != "")
	if err != nil {
		return nil, err
	}
	return d.Command(prog, append(args, url)...), nil
}

// lookPath finds the browser's program.
func (b Browser) lookPath() (string, error) {
	progs := b.programs()
	if len(progs) == 0 {
		return "", fmt.Errorf("sandbox: unknown browser %v", b)
	}
	for _, p := range progs {
		if path, err := exec.LookPath(p); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("sandbox: %v is not installed (none of %s on PATH; Debian: chromium, firefox-esr)",
		b, strings.Join(progs, ", "))
}
