package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/schema/input"
)

// manifestCmd prints what an installer or host needs to know without
// starting MCP: the versions, every tool with its input schema, and the
// backend's capabilities.
type manifestCmd struct {
	backendFlags
}

// manifest is the JSON the command prints.
type manifest struct {
	Name                   string                 `json:"name"`
	DriverVersion          string                 `json:"driver_version"`
	ContractVersion        string                 `json:"contract_version"`
	ToolsListSchemaVersion int                    `json:"tools_list_schema_version"`
	Platform               string                 `json:"platform"`
	Tools                  []manifestTool         `json:"tools"`
	Capabilities           []engine.CapabilityOut `json:"capabilities"`
}

type manifestTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func (c *manifestCmd) Run(s *streams) error {
	var m manifest
	if err := probeBackend(c.backendFlags, func(ctx context.Context, b engine.Backend) (err error) {
		m, err = buildManifest(ctx, b)
		return err
	}); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(s.Stdout, "%s\n", b)
	return nil
}

// buildManifest is the manifest of a backend: what this command prints and
// what the daemon's metadata method answers.
func buildManifest(ctx context.Context, backend engine.Backend) (manifest, error) {
	m := manifest{
		Name:                   "nish-driver",
		DriverVersion:          engine.DriverVersion,
		ContractVersion:        engine.ContractVersion,
		ToolsListSchemaVersion: engine.ToolsListSchemaVersion,
		Platform:               doctor.Platform,
		Tools:                  []manifestTool{},
		Capabilities:           []engine.CapabilityOut{},
	}
	for _, t := range engine.Tools() {
		in, ok := input.Schema(t.Name)
		if !ok {
			return manifest{}, fmt.Errorf("tool %s has no input schema", t.Name)
		}
		m.Tools = append(m.Tools, manifestTool{Name: t.Name, Description: t.Description, InputSchema: in})
	}
	for _, cap := range backend.Registry(ctx).Capabilities() {
		m.Capabilities = append(m.Capabilities, doctor.CapabilityOut(cap))
	}
	return m, nil
}
