//go:build cgo

package xlib

import (
	"github.com/nish-driver/nish-driver/internal/testkit"
	"image"
	"image/color"
	"testing"

	"github.com/nish-driver/nish-driver/internal/xtest"
)

var (
	red   = color.RGBA{0xff, 0, 0, 0xff}
	green = color.RGBA{0x20, 0xc0, 0x40, 0xff}
	black = color.RGBA{0, 0, 0, 0xff}
)

func TestCaptureHasTheWindowsColour(t *testing.T) {
	id := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 50, Y: 700, W: 200, H: 120}, RGB: 0xd02030, Class: "nish-colour", Title: "colour"})
	img, err := dpy.Capture(id)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, 200, 120) {
		t.Fatalf("capture bounds %v, want the window's 200x120", img.Bounds())
	}
	if n := testkit.CountColour(img, color.RGBA{0xd0, 0x20, 0x30, 0xff}); n != 200*120 {
		t.Fatalf("%d of %d pixels have the window's colour; at 0,0: %v", n, 200*120, img.RGBAAt(0, 0))
	}
}

func TestCaptureLeavesOutWindowsAbove(t *testing.T) {
	id := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 300, Y: 700, W: 200, H: 120}, RGB: 0x20c040, Class: "nish-below", Title: "below"})
	plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 350, Y: 750, W: 300, H: 200}, RGB: 0xff0000, Class: "nish-above", Title: "above"})
	img, err := dpy.Capture(id)
	if err != nil {
		t.Fatal(err)
	}
	if n := testkit.CountColour(img, green); n != 200*120 {
		t.Fatalf("%d of %d pixels are the window's own; %d are the window above's", n, 200*120, testkit.CountColour(img, red))
	}
}

func TestCaptureOfAGTKWindowUnderAnotherHasOnlyTheAppsPixels(t *testing.T) {
	app := startGTK(t, "covered", "nish-covered", Rect{X: 700, Y: 600, W: 300, H: 200})
	plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 850, Y: 650, W: 300, H: 100}, RGB: 0xff0000, Class: "nish-cover", Title: "cover"})
	for i := 0; i < 2; i++ {
		img, err := dpy.Capture(app.id)
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds() != image.Rect(0, 0, 300, 200) {
			t.Fatalf("capture bounds %v", img.Bounds())
		}
		if n := testkit.CountColour(img, red); n != 0 {
			t.Fatalf("capture %d holds %d pixels of the window above", i, n)
		}
		if n := testkit.CountColour(img, black); n == 300*200 {
			t.Fatalf("capture %d is all black", i)
		}
	}
}

func TestScreenCaptureReadsTheVisiblePart(t *testing.T) {
	// The path taken without Composite: the screen's pixels, black off it.
	id := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: -50, Y: 900, W: 150, H: 60}, RGB: 0x20c040, Class: "nish-offscreen", Title: "partly off"})
	d, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.ext.Composite = false // as on a server without Composite
	img, err := d.Capture(id)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := testkit.CountColour(img, green), 100*60; got != want {
		t.Errorf("%d pixels have the window's colour, want the %d on screen", got, want)
	}
	if got, want := testkit.CountColour(img, black), 50*60; got != want {
		t.Errorf("%d pixels are black, want the %d off screen", got, want)
	}
}

func TestCaptureOfAnUnmappedWindowFails(t *testing.T) {
	id := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 10, Y: 10, W: 20, H: 20}, RGB: 0x000000, Class: "nish-unmapped", Title: "unmapped"})
	if err := xt.UnmapWindow(id); err != nil {
		t.Fatal(err)
	}
	if _, err := dpy.Capture(id); err == nil {
		t.Fatal("capturing an unmapped window succeeded")
	}
}
