//go:build cgo

package screencasttest

import (
	"context"
	"image"
	"testing"

	"github.com/nish-driver/nish-driver/native/mutter"
)

// BenchmarkCaptureWaylandWindow is one capture of the focused Wayland
// window as the backend will take it, on one bus connection: a screen-cast
// session, the stream's PipeWire node, one frame converted to RGBA, the
// session stopped. Compare with native/xlib's Composite capture.
func BenchmarkCaptureWaylandWindow(b *testing.B) {
	w := startColourWindow(b, desk, "Bench capture", "604080", 800, 600)
	ctx := context.Background()
	client, err := mutter.Dial(ctx, mutter.Options{Getenv: getenv(desk)})
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()
	// Wait until the window has focus: its size comes back.
	for {
		got, err := captureWith(ctx, client, desk, mutter.FocusedWindow())
		if err == nil && got.frame.Image.Rect.Size() == image.Pt(w.width, w.height) {
			break
		}
	}
	nudges := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got, err := captureWith(ctx, client, desk, mutter.FocusedWindow())
		if err != nil {
			b.Fatal(err)
		}
		nudges += got.frame.Nudges
	}
	b.ReportMetric(float64(nudges)/float64(b.N), "nudges/op")
}
