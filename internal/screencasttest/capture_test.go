//go:build cgo

package screencasttest

import (
	"context"
	"image"
	"image/color"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native/mutter"
)

// rgb is a fixture colour as the capture should show it.
func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }

func TestCaptureFocusedWindowShowsItsPixels(t *testing.T) {
	w := startColourWindow(t, desk, "Teal capture", "2080a0", 400, 300)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	got := captureWhen(ctx, t, "the window has focus", sizeIs(w.width, w.height))
	f := got.frame
	t.Logf("stream %+v; frame size %v crop %v (sent: %v) format %s stride %d", got.stream, f.Size, f.Crop, f.Cropped, f.Format, f.Stride)
	checkSolid(t, f.Image, image.Pt(w.width, w.height), rgb(0x20, 0x80, 0xa0))
	// Mutter 43 sizes a window's stream to the window's monitor and says
	// which part the window filled (VideoCrop): the crop is the window.
	if !f.Cropped || f.Crop != image.Rect(0, 0, w.width, w.height) || f.Size != image.Pt(1280, 800) {
		t.Errorf("the frame is %v with crop %v (sent: %v), want the monitor's 1280x800 cropped to the window at 0,0", f.Size, f.Crop, f.Cropped)
	}
	if got.stream.Size != image.Pt(1280, 800) {
		t.Errorf("the stream's logical size is %v, want the monitor's", got.stream.Size)
	}
}

// Mutter focuses each new window, and when the focused one closes, the
// one below it: the focused-window capture follows, which is the rule the
// driver keeps (a window known from AT-SPI is captured while it has focus).
func TestCaptureFollowsTheFocusedWindow(t *testing.T) {
	a := startColourWindow(t, desk, "Red A", "c02020", 300, 200)
	b := startColourWindow(t, desk, "Blue B", "2020c0", 200, 100)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got := captureWhen(ctx, t, "the last window opened has focus", sizeIs(b.width, b.height))
	checkSolid(t, got.frame.Image, image.Pt(b.width, b.height), rgb(0x20, 0x20, 0xc0))
	b.stop(t)
	// Mutter moves the focus once the window is gone, a moment after the
	// app exits.
	got = captureWhen(ctx, t, "the window below has focus once the focused one closed", sizeIs(a.width, a.height))
	checkSolid(t, got.frame.Image, image.Pt(a.width, a.height), rgb(0xc0, 0x20, 0x20))
}

// A monitor's stream is the monitor's size, and shows the window on it.
// Unlike a window's stream it shows what the screen shows, so it is read
// again until mutter's map animation (the window growing and fading in)
// has ended.
func TestCaptureMonitorShowsTheWindowOnIt(t *testing.T) {
	startColourWindow(t, desk, "Green monitor", "20a040", 320, 240)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	want := rgb(0x20, 0xa0, 0x40)
	var got captured
	var err error
	testkit.Poll(5*time.Second, func() bool {
		got, err = capture(ctx, desk, mutter.Monitor("Meta-0"))
		return err == nil && testkit.CountColour(got.frame.Image, want) >= 320*240
	})
	if err != nil {
		t.Fatalf("capture of monitor Meta-0: %v", err)
	}
	f := got.frame
	if f.Size != image.Pt(1280, 800) || f.Image.Rect.Size() != f.Size {
		t.Errorf("the monitor's frame is %v (image %v), want the screen's 1280x800", f.Size, f.Image.Rect.Size())
	}
	if n := testkit.CountColour(f.Image, want); n != 320*240 {
		t.Errorf("the monitor's frame has %d pixels of the window's colour, want %d", n, 320*240)
	}
}

// checkSolid wants an image of that size all of one colour.
func checkSolid(t *testing.T, img *image.RGBA, size image.Point, want color.RGBA) {
	t.Helper()
	if img.Rect.Size() != size {
		t.Errorf("the image is %v, want the window's logical size %v", img.Rect.Size(), size)
		return
	}
	if n := testkit.CountColour(img, want); n != size.X*size.Y {
		t.Errorf("%d of the %d pixels are the window's colour %v (the centre is %v)", n, size.X*size.Y, want, img.RGBAAt(size.X/2, size.Y/2))
	}
}

// captureWhen captures the focused window on the shared desktop until
// the capture meets cond (focus moves a moment after a window maps or
// closes).
func captureWhen(ctx context.Context, t *testing.T, what string, cond func(captured) bool) captured {
	t.Helper()
	var got captured
	var err error
	if !testkit.Poll(10*time.Second, func() bool {
		got, err = capture(ctx, desk, mutter.FocusedWindow())
		return err == nil && cond(got)
	}) {
		size := image.Point{}
		if got.frame != nil {
			size = got.frame.Image.Rect.Size()
		}
		t.Fatalf("waiting until %s: the last capture failed (%v) or was %v", what, err, size)
	}
	return got
}

// sizeIs says whether a capture is of that size.
func sizeIs(w, h int) func(captured) bool {
	return func(c captured) bool { return c.frame.Image.Rect.Size() == image.Pt(w, h) }
}
