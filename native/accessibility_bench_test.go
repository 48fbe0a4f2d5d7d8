package native_test

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/native"
)

// BenchmarkWindowAccessibility measures what a read that looks empty adds:
// the first question about a window (a fresh backend: frame match, the
// app's toolkit name, its process's mapped files) and a later one (all
// remembered). BenchmarkDoctorRegistry is the whole doctor registry with
// the accessibility switch and the list of empty windows, with the
// synthetic fixture on the desktop.
func BenchmarkWindowAccessibility(b *testing.B) {
	a := startSynthetic(b, 3)
	pid := a.cmd.Process.Pid
	h := newHarness(b, time.Second)
	win := waitForWindow(b, h, pid, "")
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			nb, err := native.Open(backendOptions(b))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := nb.WindowAccessibility(ctx, win.ID); err != nil {
				b.Fatal(err)
			}
			nb.Close()
		}
	})
	b.Run("remembered", func(b *testing.B) {
		if _, err := h.b.WindowAccessibility(ctx, win.ID); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := h.b.WindowAccessibility(ctx, win.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDoctorRegistry(b *testing.B) {
	startSynthetic(b, 3)
	h := newHarness(b, time.Second)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		h.b.Registry(ctx)
	}
}
