package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/daemon"
)

// daemonCmd is the display owner several hosts share (docs/daemon.md): one
// driver and one backend behind a private Unix socket. Hosts reach it with
// `nish-driver mcp --connect`, or speak the socket protocol directly.
type daemonCmd struct {
	driverFlags
	Socket string `name:"socket" placeholder:"PATH" help:"Socket path, absolute, in a private (0700) directory (default $XDG_RUNTIME_DIR/nish-driver/sock)."`
}

func (c *daemonCmd) Run(s *streams) error {
	logger := slog.New(slog.NewTextHandler(s.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	path, err := socketPath(c.Socket)
	if err != nil {
		return err
	}
	// The socket first: a second daemon refuses before it opens a display.
	ep, err := daemon.Listen(path)
	if errors.Is(err, daemon.ErrAlreadyRunning) {
		// Its own exit status, so that a service manager does not start
		// it again and again beside the daemon that is running
		// (packaging/nish-driver.service: RestartPreventExitStatus).
		fmt.Fprintln(s.Stderr, "nish-driver:", err)
		return exitAlreadyRunning
	}
	if err != nil {
		return err
	}
	defer ep.Close()

	// The daemon owns the display, so it holds the kill switch; a press
	// does what the kill method does.
	w, err := wireDriver(c.driverFlags, logger)
	if err != nil {
		return err
	}
	defer w.Close()
	backend, d := w.backend, w.driver
	defer d.Shutdown()

	srv, err := daemon.New(daemon.Options{
		Driver:   d,
		Backend:  backend,
		Metadata: func(ctx context.Context) (any, error) { return buildManifest(ctx, backend) },
		Logger:   logger,
	})
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	warnIfNotReady(ctx, logger, backend)
	logger.Info("daemon listening", "socket", path, "backend", c.Backend,
		"driver_version", engine.DriverVersion, "contract_version", engine.ContractVersion)
	if err := srv.Serve(ctx, ep); err != nil {
		logger.Error("the daemon stopped", "error", err.Error())
		return exitFailed
	}
	logger.Info("daemon stopped")
	return nil
}

// socketPath is --socket when given (it must be absolute), else the
// default endpoint.
func socketPath(flag string) (string, error) {
	if flag == "" {
		return daemon.DefaultPath()
	}
	if !filepath.IsAbs(flag) {
		return "", errors.New("--socket must be an absolute path")
	}
	return flag, nil
}
