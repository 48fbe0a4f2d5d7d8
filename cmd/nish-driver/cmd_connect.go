package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/nish-driver/nish-driver/internal/daemon"
)

// runConnect is `nish-driver mcp --connect`: instead of serving MCP itself,
// it bridges stdio to the daemon's socket, so a host that starts the
// driver as a stdio server shares the daemon's display owner. The bytes
// pass through untouched; the daemon sees the host's initialize first and
// serves the connection as an MCP session.
func runConnect(socket string) error {
	path, err := socketPath(socket)
	if err != nil {
		return err
	}
	// Only the daemon's bytes go to stdout.
	out, err := claimStdout()
	if err != nil {
		return err
	}
	conn, err := daemon.Dial(path)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return daemon.Bridge(ctx, conn, os.Stdin, out)
}
