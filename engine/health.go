package engine

import (
	"context"
	"strings"
)

// health_report: the backend registry as a tool result, the same figures
// the doctor reports.

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Health converts the backend registry into health_report's result: its
// entries, and the capabilities the table derives from its parts.
func (d *Driver) Health(ctx context.Context) HealthResult {
	reg := d.backend.Registry(ctx)
	res := HealthResult{OK: true, Ready: reg.Ready(), SessionType: reg.SessionType, DriverVersion: DriverVersion,
		ContractVersion: ContractVersion, Backends: []RegistryEntryOut{}, Capabilities: []CapabilityOut{}}
	for _, b := range reg.Backends {
		res.Backends = append(res.Backends, RegistryEntryOut{ID: b.ID, Status: b.Status, Required: b.Required,
			ReasonCode: nullable(b.ReasonCode), Action: nullable(b.Action)})
	}
	for _, c := range reg.Capabilities() {
		res.Capabilities = append(res.Capabilities, CapabilityOut{Name: c.Name, Status: c.Status,
			ReasonCode: nullable(c.ReasonCode), Action: nullable(c.Action), Consent: c.Consent, RestsOn: c.RestsOn})
	}
	return res
}

func healthReport(ctx context.Context, c *Conn, a *Args) Result {
	res := c.d.Health(ctx)
	var b strings.Builder
	if res.Ready {
		b.WriteString("ready")
	} else {
		b.WriteString("not ready")
	}
	b.WriteString(" session_type=" + res.SessionType)
	for _, be := range res.Backends {
		b.WriteString("\nbackend " + be.ID + " " + be.Status)
		if be.ReasonCode != nil {
			b.WriteString(" (" + *be.ReasonCode + ")")
		}
	}
	for _, cp := range res.Capabilities {
		b.WriteString("\n" + cp.Name + " " + cp.Status)
	}
	return Result{Structured: res, Text: b.String()}
}
