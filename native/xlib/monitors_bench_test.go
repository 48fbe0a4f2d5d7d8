//go:build cgo

package xlib

import (
	"context"
	"testing"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// BenchmarkMonitors is one RandR GetMonitors round trip on the main
// connection, as the doctor and the consent dialog make it.
func BenchmarkMonitors(b *testing.B) {
	for b.Loop() {
		if _, err := dpy.Monitors(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndicatorPlaceAcrossMonitors moves the paused indicator's label
// and Continue between two monitors each time, the dearest Place: the
// engine calls it before every press, and most calls find the label
// already on the press's monitor.
func BenchmarkIndicatorPlaceAcrossMonitors(b *testing.B) {
	d, err := sandbox.Start(context.Background(), sandbox.Options{Screen: "2880x1080x24"})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for _, args := range [][]string{
		{"--setmonitor", "LEFT", "1920/508x1080/286+0+0", "screen"},
		{"--setmonitor", "RIGHT", "960/127x720/95+1920+0", "none"},
	} {
		if out, err := d.Command("xrandr", args...).CombinedOutput(); err != nil {
			b.Fatalf("xrandr %v: %v: %s", args, err, out)
		}
	}
	ind, err := ShowIndicator(d.Display, IndicatorOptions{Paused: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ind.Remove()
	targets := []Rect{{X: 2000, Y: 10, W: 10, H: 10}, {X: 10, Y: 10, W: 10, H: 10}}
	i := 0
	for b.Loop() {
		if err := ind.Place(targets[i%2]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
