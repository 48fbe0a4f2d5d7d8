//go:build cgo

package xlib

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// desk is the private desktop every test of the package runs on, and dpy
// the package's main connection to it.
var (
	desk *sandbox.Desktop
	dpy  *Display
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	desk, err = sandbox.Start(context.Background(), sandbox.Options{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "native/xlib tests need the sandbox desktop (Xvfb, dbus, at-spi2-core): %v\n", err)
		return 1
	}
	defer desk.Close()
	dpy, err = Open(desk.Display)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot open the sandbox display: %v\n", err)
		return 1
	}
	defer dpy.Close()
	return m.Run()
}
