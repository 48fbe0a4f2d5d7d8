package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/daemon"
)

// doctorCmd prints the readiness report (docs/contract.md#doctor-report). It
// never touches the network.
type doctorCmd struct {
	backendFlags
	JSON bool `name:"json" help:"Print the versioned JSON report instead of text."`
}

// probeBackend opens the backend of f for one report (doctor, manifest)
// and runs probe on it with a context bounded by daemon.RegistryTimeout (the daemon's doctor method's bound).
func probeBackend(f backendFlags, probe func(ctx context.Context, b engine.Backend) error) error {
	backend, closeBackend, err := openBackend(f, "")
	if err != nil {
		return err
	}
	defer closeBackend()
	ctx, cancel := context.WithTimeout(context.Background(), daemon.RegistryTimeout)
	defer cancel()
	return probe(ctx, backend)
}

func (c *doctorCmd) Run(s *streams) error {
	var report doctor.Report
	if err := probeBackend(c.backendFlags, func(ctx context.Context, b engine.Backend) error {
		report = doctor.Build(b.Registry(ctx))
		return nil
	}); err != nil {
		return err
	}
	if c.JSON {
		b, err := json.MarshalIndent(report, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(s.Stdout, "%s\n", b)
	} else {
		fmt.Fprint(s.Stdout, doctor.Text(report))
	}
	if !report.Ready {
		return exitFailed
	}
	return nil
}
