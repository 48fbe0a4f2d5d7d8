package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// startedKeePassXC creates a database on d and starts KeePassXC on it as
// a person would with `nish-driver sandbox keepassxc FILE` (AppCommand: its
// default settings, a single-instance program), or as the tests do
// (KeePassXCCommand).
func startedKeePassXC(t *testing.T, d *Desktop, asPerson bool) (*exec.Cmd, *testkit.SyncBuffer) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "fixture.kdbx")
	if err := d.KeePassXCDatabase(db, "fixture-master", KeePassEntry{Title: "Mail", Username: "ada", URL: "https://mail.example", Password: "entry-secret"}); err != nil {
		t.Fatal(err)
	}
	cmd := d.AppCommand([]string{"keepassxc", db})
	if !asPerson {
		var err error
		if cmd, err = d.KeePassXCCommand(db); err != nil {
			t.Fatal(err)
		}
	}
	out := startCapturing(t, d, cmd)
	return cmd, out
}

// TestKeePassXCOnTwoDesktopsAtOnce starts KeePassXC on two desktops at the
// same time, with its default settings as a person would, then as the
// tests do. Each must join its own desktop's accessibility bus with the pid
// that was started: with the machine's /tmp shared, the second KeePassXC
// found the first one's lock there, handed its file over and exited, and
// never joined the bus.
func TestKeePassXCOnTwoDesktopsAtOnce(t *testing.T) {
	for _, asPerson := range []bool{true, false} {
		t.Run(map[bool]string{true: "AppCommand", false: "KeePassXCCommand"}[asPerson], func(t *testing.T) {
			keepassOnTwoDesktops(t, asPerson)
		})
	}
}

func keepassOnTwoDesktops(t *testing.T, asPerson bool) {
	ctx := context.Background()
	var desks []*Desktop
	for range 2 {
		d := startDesk(t)
		desks = append(desks, d)
	}
	var cmds []*exec.Cmd
	for i, d := range desks {
		cmd, out := startedKeePassXC(t, d, asPerson)
		cmds = append(cmds, cmd)
		app, err := d.WaitForAppPid(ctx, cmd.Process.Pid, 30*time.Second)
		if err != nil {
			t.Fatalf("desktop %d: %v; KeePassXC said:\n%s", i+1, err, out.String())
		}
		if !strings.Contains(app.Name, "KeePassXC") {
			t.Fatalf("desktop %d: the app registered as %q", i+1, app.Name)
		}
		lock := filepath.Join(d.Root, "tmp", "keepassxc.lock")
		if _, err := os.Stat(lock); asPerson && err != nil {
			t.Fatalf("desktop %d: KeePassXC's lock is not in the desktop's own temporary folder: %v", i+1, err)
		}
	}
	for i, d := range desks {
		if _, err := d.Stop(cmds[i], 10*time.Second); err != nil {
			t.Fatalf("desktop %d: %v", i+1, err)
		}
	}
}

// TestQtFindsTheAccessibilityBus checks what a Qt 5 app needs to join the
// bus, then that FeatherPad does. Qt 5.15 takes the bus's address from
// the AT_SPI_BUS property of the X root window: without the property, or
// with one naming another bus, it never joins (measured with Debian 12's
// Qt 5.15.8, QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 set or not), so the
// property must name the bus org.a11y.Bus.GetAddress names.
func TestQtFindsTheAccessibilityBus(t *testing.T) {
	ctx := context.Background()
	d := startDesk(t)
	prop, err := d.Command("xprop", "-root", "AT_SPI_BUS").CombinedOutput()
	if err != nil {
		t.Fatalf("xprop (Debian: x11-utils): %v: %s", err, prop)
	}
	addr, err := d.Command("gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
		"--method", "org.a11y.Bus.GetAddress").CombinedOutput()
	if err != nil {
		t.Fatalf("org.a11y.Bus.GetAddress: %v: %s", err, addr)
	}
	// gdbus prints ('unix:path=...',); xprop prints AT_SPI_BUS(STRING) = "unix:path=..."
	want := strings.Trim(strings.TrimSpace(string(addr)), "(),'")
	_, got, _ := strings.Cut(strings.TrimSpace(string(prop)), " = ")
	if got = strings.Trim(got, `"`); got != want || want == "" {
		t.Fatalf("the root window's AT_SPI_BUS is %q; the accessibility bus is %q", got, want)
	}

	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("first line\nsecond line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second copy on the same desktop is an app of its own
		cmd, err := d.FeatherPadCommand(file)
		if err != nil {
			t.Fatal(err)
		}
		out := startCapturing(t, d, cmd)
		app, err := d.WaitForAppPid(ctx, cmd.Process.Pid, 30*time.Second)
		if err != nil {
			t.Fatalf("%v; FeatherPad said:\n%s", err, out.String())
		}
		if app.Name != "FeatherPad" {
			t.Fatalf("FeatherPad registered as %q", app.Name)
		}
	}
}
