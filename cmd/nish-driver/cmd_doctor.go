package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nish-driver/nish-driver/engine/doctor"
)

// doctorCmd prints the readiness report (docs/contract.md#doctor-report). It
// never touches the network.
type doctorCmd struct {
	backendFlags
	JSON bool `name:"json" help:"Print the versioned JSON report instead of text."`
}

// registryTimeout bounds the backend's probes.
const registryTimeout = 10 * time.Second

func (c *doctorCmd) Run(s *streams) error {
	backend, closeBackend, err := openBackend(c.backendFlags, "")
	if err != nil {
		return err
	}
	defer closeBackend()
	ctx, cancel := context.WithTimeout(context.Background(), registryTimeout)
	defer cancel()
	report := doctor.Build(backend.Registry(ctx))
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
		return exitStatus(1)
	}
	return nil
}
