//go:build cgo

package xlib

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/xtest"
)

func TestOpenNamesTheDisplayAndCloseEndsIt(t *testing.T) {
	d, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name() != desk.Display {
		t.Errorf("Name() = %q, want %q", d.Name(), desk.Display)
	}
	if err := d.Sync(); err != nil {
		t.Fatalf("Sync on an open display: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if _, err := d.TopLevels(); !errors.Is(err, ErrClosed) {
		t.Fatalf("TopLevels after Close = %v, want ErrClosed", err)
	}
	if err := d.FakeMotion(1, 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("FakeMotion after Close = %v, want ErrClosed", err)
	}
}

func TestOpenOfAMissingDisplayFails(t *testing.T) {
	d, err := Open(":249")
	if err == nil {
		d.Close()
		t.Fatal("opening a display that does not exist succeeded")
	}
}

func TestExtensionsOfXvfb(t *testing.T) {
	x := dpy.Extensions()
	if !x.hasMonitors() {
		t.Errorf("Extensions() = %+v, want RandR 1.5 or newer (GetMonitors)", x)
	}
	x.RandRMajor, x.RandRMinor = 0, 0 // 1.6 on Debian 12's Xvfb; newer servers may say more
	want := Extensions{XTest: true, XInputMajor: 2, XInputMinor: 2, Composite: true, XRes: true, Shape: true}
	if x != want {
		t.Fatalf("Extensions() = %+v, want %+v", x, want)
	}
}

func TestAnXErrorIsAGoErrorAndTheDisplayKeepsWorking(t *testing.T) {
	id, err := xt.NewPlainWindow(xtest.PlainWindow{Frame: xtest.Rect{X: 10, Y: 10, W: 50, H: 50}, RGB: 0x808080, Class: "nish-test-gone", Title: "gone"})
	if err != nil {
		t.Fatal(err)
	}
	if err := xt.DestroyWindow(id); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		call func() error
	}{
		{"Capture", func() error { _, err := dpy.Capture(id); return err }},
		{"Describe", func() error { _, err := dpy.Describe(id); return err }},
		{"Raise", func() error { return dpy.Raise(id) }},
	}
	for _, c := range cases {
		err := c.call()
		if !errors.Is(err, ErrWindowGone) {
			t.Errorf("%s of a destroyed window = %v, want an error matching ErrWindowGone", c.name, err)
		}
	}
	var xe *XError
	if _, err := dpy.Capture(id); !errors.As(err, &xe) || xe.Code != xBadWindow {
		t.Errorf("Capture of a destroyed window = %v, want *XError BadWindow", err)
	}
	if _, err := dpy.TopLevels(); err != nil {
		t.Fatalf("TopLevels after X errors: %v", err)
	}
	if _, _, err := dpy.Pointer(); err != nil {
		t.Fatalf("Pointer after X errors: %v", err)
	}
}

// TestCloseUnderPendingCallsReturnsErrors: eight goroutines call until a
// call fails; Close comes once calls have succeeded, so it meets calls in
// flight. Every goroutine's calls end, each with ErrClosed.
func TestCloseUnderPendingCallsReturnsErrors(t *testing.T) {
	d, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var answered atomic.Int32
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if _, err := d.TopLevels(); err != nil {
					errs <- err
					return
				}
				answered.Add(1)
			}
		}()
	}
	testkit.Eventually(t, 30*time.Second, "calls answered before Close", func() bool { return answered.Load() >= 8 })
	d.Close()
	testkit.Returns(t, 30*time.Second, "the calls after Close", wg.Wait)
	close(errs)
	for err := range errs {
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("a call racing Close returned %v, want ErrClosed", err)
		}
	}
}

func TestALostDisplayIsAnErrorNotAnExit(t *testing.T) {
	other, err := sandbox.Start(context.Background(), sandbox.Options{Screen: "640x480x24"})
	if err != nil {
		t.Fatalf("a second sandbox desktop: %v", err)
	}
	defer other.Close()
	d, err := Open(other.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.TopLevels(); err != nil {
		t.Fatal(err)
	}
	// The tests' other client on the same server (internal/xtest, opened
	// through the same internal/xconn) loses it too.
	x, err := xtest.Open(other.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	// Calls are in flight on the connection while its server goes away.
	results := make(chan error, 1)
	var answered atomic.Int32
	go func() {
		for {
			if _, err := d.TopLevels(); err != nil {
				results <- err
				return
			}
			answered.Add(1)
		}
	}()
	testkit.Eventually(t, 30*time.Second, "calls answered before the server goes", func() bool { return answered.Load() > 0 })
	other.Close() // kills Xvfb
	select {
	case err := <-results:
		if !errors.Is(err, ErrDisplayLost) {
			t.Fatalf("a call on a dead display = %v, want ErrDisplayLost", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("calls kept succeeding after the X server died")
	}
	for _, call := range []func() error{
		d.Sync,
		func() error { return d.FakeMotion(1, 1) },
		func() error { _, err := d.Capture(1); return err },
	} {
		if err := call(); !errors.Is(err, ErrDisplayLost) {
			t.Fatalf("a later call = %v, want ErrDisplayLost", err)
		}
	}
	if _, err := x.FindByClass(DriverClass); !errors.Is(err, xtest.ErrDisplayLost) {
		t.Fatalf("a test client's call on the dead display = %v, want xtest.ErrDisplayLost", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// The main connection is untouched.
	if _, err := dpy.TopLevels(); err != nil {
		t.Fatalf("the other display's connection broke too: %v", err)
	}
}
