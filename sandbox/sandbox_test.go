package sandbox

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestDesktopComesUpAndGoesAway(t *testing.T) {
	d, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatalf("the sandbox needs Xvfb, dbus and at-spi2-core (make test installs them): %v", err)
	}
	vars := d.Vars()
	for _, k := range []string{"DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"} {
		if vars[k] == "" {
			t.Fatalf("%s is not set", k)
		}
	}
	// The accessibility bus answers with its address.
	cmd := d.Command("gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
		"--method", "org.a11y.Bus.GetAddress")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "unix:") {
		t.Fatalf("org.a11y.Bus.GetAddress: %v %s", err, out)
	}
	for _, kv := range d.Env() {
		if strings.HasPrefix(kv, "NO_AT_BRIDGE=") {
			t.Fatal("NO_AT_BRIDGE must be unset for apps to join the bus")
		}
	}
	sock := "/tmp/.X11-unix/X" + strings.TrimPrefix(d.Display, ":")
	root := d.Root
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(sock); os.IsNotExist(err) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Fatal("the display socket outlived Close")
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatal("the private directory outlived Close")
	}
}

func TestAnAppJoinsTheAccessibilityBus(t *testing.T) {
	d, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	app := d.Command("zenity", "--info", "--text", "hello")
	if err := d.Start(app); err != nil {
		t.Fatalf("zenity (Debian: zenity) must be installed: %v", err)
	}
	got, err := d.WaitForApp(context.Background(), "zenity", 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got.Pid != app.Process.Pid {
		t.Fatalf("registered pid %d, started %d", got.Pid, app.Process.Pid)
	}
}
