package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
)

// serveDebugStats writes one stats line to the log each time the process
// gets SIGUSR1, until ctx ends: the goroutine count and the Go heap, taken
// after a forced collection that also hands freed memory back to the
// system, so a soak (ci/soak) compares like with like when it reads the
// resident size from /proc. Only counts are written, never payloads.
func serveDebugStats(ctx context.Context, logger *slog.Logger) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		defer signal.Stop(sig)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sig:
				runtime.GC()
				debug.FreeOSMemory()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				logger.Info("debug stats", "goroutines", runtime.NumGoroutine(),
					"heap_alloc_bytes", m.HeapAlloc, "heap_sys_bytes", m.HeapSys)
			}
		}
	}()
}
