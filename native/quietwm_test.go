package native_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/xtest"
)

// The window_keys path under a real EWMH window manager (docs/decisions.md,
// "Window keys"): the test desktop has none, a person's X11 desktop has
// one (GNOME on X11 runs mutter), and a browser focusing its field could
// ask it (_NET_ACTIVE_WINDOW) to activate the browser's window: the
// manager would then move the person's focus and raise the browser.

// TestWindowKeysUnderWindowManager: with mutter managing the test desktop
// (started once for the test, stopped when it ends), type_text into
// Firefox's and Chromium's page field beside the person at work leaves
// the person's window holding the X focus and the manager's active
// window, the stacking and the person's entry as they were, and the field
// holds the text.
func TestWindowKeysUnderWindowManager(t *testing.T) {
	// A desktop of its own: mutter leaves marks on the root when it goes
	// (_NET_WORKAREA, _NET_ACTIVE_WINDOW, ...) that apps of later tests
	// would read.
	onOwnDesktop(t, desktops, false)
	root := manageDesktop(t)
	for _, kind := range []sandbox.Browser{sandbox.Firefox, sandbox.Chromium} {
		t.Run(kind.String(), func(t *testing.T) {
			b, h, p := besideTheBrowser(t, kind)
			defer b.alive(t)
			testkit.Eventually(t, 30*time.Second, "the window manager manages the browser and the person's window is its active one", func() bool {
				clients, _ := root.RootWindows("_NET_CLIENT_LIST")
				return slices.Contains(clients, topLevelOf(t, p.x, b.pid)) && activeIs(root, p.win)
			})
			const text = "Under the window manager: Ada Lovelace"
			res := onName(t, h, b.pid, "", "type_text", map[string]any{"text": text})
			if res["path"] != string(engine.PathWindowKeys) || res["effect"] != "confirmed" || res["took_cursor"] != false ||
				!strings.Contains(testkit.JSON(t, res["diff"]), text) {
				t.Fatalf("type_text into %s's field under the window manager: %v", kind, res)
			}
			p.fieldHolds(t, text)
			p.untouched(t, "type_text under the window manager")
			if !activeIs(root, p.win) {
				t.Fatalf("after type_text the window manager's active window is not the person's %#x", p.win)
			}
		})
	}
}

// manageDesktop starts mutter as the X11 window manager of the test's
// own desktop, waits until it announces itself on the root, and returns a
// connection that reads the root. When the test ends mutter is stopped
// and the test waits until its announcement is gone.
func manageDesktop(t *testing.T) *xtest.Display {
	t.Helper()
	d := deskOf(t)
	root, err := xtest.Open(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	announced := func() bool {
		check, err := root.RootWindows("_NET_SUPPORTING_WM_CHECK")
		return len(check) > 0 || err != nil
	}
	if announced() {
		t.Fatal("the test desktop already has a window manager")
	}
	if v, err := exec.Command("mutter", "--version").Output(); err == nil {
		t.Logf("window manager: %s", strings.SplitN(string(v), "\n", 2)[0])
	}
	wm := d.Command("mutter", "--x11", "--replace", "--sm-disable")
	if err := d.Start(wm); err != nil {
		t.Fatalf("starting mutter (Debian: mutter): %v", err)
	}
	t.Cleanup(func() {
		if _, err := d.Stop(wm, 10*time.Second); err != nil {
			t.Errorf("stopping mutter: %v", err)
		}
		if !testkit.Poll(10*time.Second, func() bool { return !announced() }) {
			t.Errorf("mutter stopped and the root still names a window manager")
		}
	})
	testkit.Eventually(t, 20*time.Second, "mutter manages the desktop", func() bool {
		return announced() && d.Running(wm)
	})
	return root
}

// activeIs reports whether the root names win the active window.
func activeIs(root *xtest.Display, win uint64) bool {
	active, err := root.RootWindows("_NET_ACTIVE_WINDOW")
	return err == nil && slices.Equal(active, []uint64{win})
}
