//go:build cgo

package xlib

import (
	"fmt"
	"os"
	"testing"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/xtest"
)

// desk is the private desktop every test of the package runs on, dpy the
// package's main connection to it, and xt another client on it: the apps
// and the person, who make plain windows, forge events and look at what
// the driver's windows publish.
var (
	desk *sandbox.Desktop
	dpy  *Display
	xt   *xtest.Display
)

func TestMain(m *testing.M) {
	os.Exit(sandbox.RunTests("native/xlib", func(d *sandbox.Desktop) int {
		desk = d
		return run(m)
	}))
}

// run opens the package's two connections to the desktop and runs the
// tests.
func run(m *testing.M) int {
	var err error
	dpy, err = Open(desk.Display)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot open the sandbox display: %v\n", err)
		return 1
	}
	defer dpy.Close()
	xt, err = xtest.Open(desk.Display)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot open a second client on the sandbox display: %v\n", err)
		return 1
	}
	defer xt.Close()
	return m.Run()
}
