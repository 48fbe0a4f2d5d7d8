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

// browsers holds each browser's facts in one row: its name as a person
// says it, which is also the name it registers under on the AT-SPI bus
// (the name of its application object), and the commands it is installed
// as, in the order they are looked for on PATH (Debian's first).
var browsers = map[Browser]struct {
	name     string
	programs []string
}{
	Chromium: {"Chromium", []string{"chromium", "chromium-browser", "google-chrome"}},
	Firefox:  {"Firefox", []string{"firefox-esr", "firefox"}},
}

// String is the browser's name as a person says it.
func (b Browser) String() string {
	if f, ok := browsers[b]; ok {
		return f.name
	}
	return fmt.Sprintf("Browser(%d)", int(b))
}

// AppName is the name the browser registers under on the AT-SPI bus, for
// WaitForApp ("" for a value that names no browser).
func (b Browser) AppName() string { return browsers[b].name }

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
	progs := browsers[b].programs
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
