package atspi

import (
	"context"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/desktop"
)

// TestBusRestartReconnects restarts the accessibility bus under a client
// and checks that the next calls reconnect. Restarting the bus strands
// every app on it, so this test has a desktop of its own rather than the
// package's shared one.
func TestBusRestartReconnects(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	d, err := sandbox.Start(ctx, sandbox.Options{})
	if err != nil {
		t.Fatalf("a second private desktop: %v", err)
	}
	defer d.Close()
	vars := d.Vars()
	c := New(Options{Getenv: func(k string) string { return vars[k] }})
	defer c.Close()

	start := func(rows string) (int, Frame) {
		script, _ := filepath.Abs("testdata/synthetic.py")
		cmd := d.Command(python, script, rows)
		if _, err := desktop.Start(d, cmd); err != nil {
			t.Fatal(err)
		}
		return cmd.Process.Pid, waitFrame(t, c, cmd.Process.Pid, "Synthetic")
	}
	_, before := start("3")
	if _, err := c.ReadTree(callCtx(t), before.ID, ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	oldWatch, err := c.Watch(callCtx(t), before.Bus)
	if err != nil {
		t.Fatal(err)
	}
	defer oldWatch.Close()

	// Stop the bus launcher (it takes its bus daemon with it) and start a
	// new one: the accessibility bus comes back at a new address.
	session, err := dbus.Connect(vars["DBUS_SESSION_BUS_ADDRESS"])
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	var launcher uint32
	if err := session.BusObject().Call("org.freedesktop.DBus.GetConnectionUnixProcessID", 0, "org.a11y.Bus").Store(&launcher); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(int(launcher), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 30*time.Second, "the bus launcher gone", func() bool { return syscall.Kill(int(launcher), 0) != nil })
	// A watcher on the old bus says it cannot tell any more.
	_, _, err = oldWatch.Quiet(callCtx(t), time.Hour, time.Hour)
	if e := (*Error)(nil); !asError(err, &e) || e.Kind != KindGone || !oldWatch.Broken() {
		t.Fatalf("a watcher's Quiet after the bus went down: %v", err)
	}
	// The old window's calls fail while the bus is down.
	_, err = c.ReadTree(callCtx(t), before.ID, ReadOptions{})
	if err == nil {
		t.Fatal("a read succeeded with the accessibility bus down")
	}
	if err := d.Start(d.Command("/usr/libexec/at-spi-bus-launcher", "--launch-immediately")); err != nil {
		t.Fatal(err)
	}
	wait := exec.CommandContext(ctx, "gdbus", "wait", "--session", "--timeout", "15", "org.a11y.Bus")
	wait.Env = d.Env()
	if out, err := wait.CombinedOutput(); err != nil {
		t.Fatalf("the new bus did not come up: %v %s", err, out)
	}
	// The same client finds and reads an app on the new bus.
	_, after := start("4")
	tree, err := c.ReadTree(callCtx(t), after.ID, ReadOptions{Details: DetailsAll})
	if err != nil {
		t.Fatalf("reading after the restart: %v", err)
	}
	if tree.Nodes[0].Name != "Synthetic 4 rows" {
		t.Fatalf("read %q after the restart", tree.Nodes[0].Name)
	}
	// Watching works on the new bus (the event kinds are registered anew).
	w, err := c.Watch(callCtx(t), after.Bus)
	if err != nil {
		t.Fatalf("watching after the restart: %v", err)
	}
	defer w.Close()
	mark := w.Counts()
	for _, n := range tree.Nodes {
		if n.Role == "push_button" && n.Name == "Add row" {
			if err := c.DoAction(callCtx(t), n.ID, "click"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if changed, err := w.WaitChange(callCtx(t), mark, 10*time.Second); !changed || err != nil {
		t.Fatalf("no event after the restart (%v)", err)
	}
	// The window from before the restart is gone for good.
	_, err = c.ReadTree(callCtx(t), before.ID, ReadOptions{})
	var e *Error
	if err == nil || !asError(err, &e) || (e.Kind != KindGone && e.Kind != KindNotResponding) {
		t.Fatalf("the old window after the restart: %v", err)
	}
}

func asError(err error, e **Error) bool {
	x, ok := err.(*Error)
	if ok {
		*e = x
	}
	return ok
}
