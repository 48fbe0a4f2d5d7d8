package main

import (
	"fmt"

	"github.com/nish-driver/nish-driver/engine"
)

// versionCmd prints the driver's version and the contract it implements.
type versionCmd struct{}

func (versionCmd) Run(s *streams) error {
	fmt.Fprintf(s.Stdout, "nish-driver %s (contract %s, tools_list_schema_version %d)\n",
		engine.DriverVersion, engine.ContractVersion, engine.ToolsListSchemaVersion)
	return nil
}
