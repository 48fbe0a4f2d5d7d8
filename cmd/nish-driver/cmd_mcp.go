package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/control"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/daemon"
	"github.com/nish-driver/nish-driver/internal/mcpserver"
	"github.com/nish-driver/nish-driver/internal/mcpserver/wire"
)

// mcpCmd serves MCP over stdio. Only protocol goes to stdout; the driver's
// own lines go to stderr and never carry tool arguments or app text.
type mcpCmd struct {
	driverFlags
	ControlIn  int    `name:"control-in" default:"-1" placeholder:"FD" help:"Inherited file descriptor the host writes control lines to (with --control-out)."`
	ControlOut int    `name:"control-out" default:"-1" placeholder:"FD" help:"Inherited file descriptor the driver writes control events to (with --control-in)."`
	Connect    bool   `name:"connect" help:"Bridge stdio to a running nish-driver daemon instead of driving the desktop from this process (with --socket PATH)."`
	Socket     string `name:"socket" placeholder:"PATH" help:"The daemon's socket for --connect (default $XDG_RUNTIME_DIR/nish-driver/sock)."`
	DebugStats bool   `name:"debug-stats" hidden:"" help:"On SIGUSR1, log the goroutine count and the Go heap to stderr (for the soak in make bench)."`
}

func (c *mcpCmd) Run(s *streams) error {
	if c.Connect {
		return runConnect(c.Socket)
	}
	logger := slog.New(slog.NewTextHandler(s.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	// Take the protocol's stdout before anything else can write to it.
	protocolOut, err := claimStdout()
	if err != nil {
		return err
	}

	w, err := wireDriver(c.driverFlags, logger)
	if err != nil {
		return err
	}
	defer w.Close()
	backend, d := w.backend, w.driver

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	pipe, err := c.openControl(d)
	if err != nil {
		return err
	}
	if pipe != nil {
		d.SetHost(pipe)
		defer pipe.Close()
		go func() {
			if err := pipe.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				logger.Warn("control pipe input failed; approvals are denied from now on")
			} else {
				logger.Info("control pipe input ended")
			}
		}()
	}

	warnIfNotReady(ctx, logger, backend)
	if c.DebugStats {
		serveDebugStats(ctx, logger)
	}

	server, err := mcpserver.New(d, mcpserver.Options{Logger: logger})
	if err != nil {
		return err
	}
	logger.Info("serving MCP on stdio", "backend", c.Backend, "driver_version", engine.DriverVersion,
		"contract_version", engine.ContractVersion, "control_pipe", pipe != nil)
	err = server.Run(ctx, &wire.Transport{Reader: os.Stdin, Writer: protocolOut})
	if err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("MCP session ended with an error")
		return exitFailed
	}
	logger.Info("MCP session ended")
	return nil
}

// warnIfNotReady tells the person reading stderr, once at start, that the
// desktop cannot be driven and why (reason codes only), so a host's log
// explains why every tool fails with backend_unavailable.
func warnIfNotReady(ctx context.Context, logger *slog.Logger, backend engine.Backend) {
	ctx, cancel := context.WithTimeout(ctx, daemon.RegistryTimeout)
	defer cancel()
	report := doctor.Build(backend.Registry(ctx))
	if report.Ready {
		return
	}
	var reasons []string
	for _, s := range report.NextSteps {
		reasons = append(reasons, s.ReasonCode)
	}
	logger.Warn("the desktop is not ready: tools will fail with backend_unavailable; run nish-driver doctor",
		"reasons", strings.Join(reasons, ","))
}

// openControl opens the inherited control pipe, when both descriptors are
// given (docs/contract.md#control-pipe). Without it, consent alone rules.
func (c *mcpCmd) openControl(d *engine.Driver) (*control.Pipe, error) {
	if c.ControlIn < 0 && c.ControlOut < 0 {
		return nil, nil
	}
	if c.ControlIn < 0 || c.ControlOut < 0 {
		return nil, errors.New("--control-in and --control-out go together")
	}
	in, err := inheritedFile(c.ControlIn, "control-in")
	if err != nil {
		return nil, err
	}
	out, err := inheritedFile(c.ControlOut, "control-out")
	if err != nil {
		return nil, err
	}
	return control.New(in, out, d, control.Options{}), nil
}

// inheritedFile wraps a descriptor the host passed, checking it is open.
func inheritedFile(fd int, name string) (*os.File, error) {
	if fd <= 2 {
		return nil, fmt.Errorf("--%s %d: the standard descriptors belong to MCP", name, fd)
	}
	f := os.NewFile(uintptr(fd), name)
	if f == nil {
		return nil, fmt.Errorf("--%s %d: not a descriptor", name, fd)
	}
	if _, err := f.Stat(); err != nil {
		return nil, fmt.Errorf("--%s %d: not an open descriptor", name, fd)
	}
	syscall.CloseOnExec(fd)
	return f, nil
}
