package doctor

import (
	"fmt"
	"strings"
)

// Text renders the report for a person reading a terminal: ready or not,
// each backend, what is available, then the steps to take.
func Text(r Report) string {
	var b strings.Builder
	state := "READY"
	if !r.Ready {
		state = "NOT READY"
	}
	fmt.Fprintf(&b, "nish-driver doctor: %s\n", state)
	fmt.Fprintf(&b, "driver %s, contract %s, platform %s, session %s\n",
		r.DriverVersion, r.ContractVersion, r.Platform, r.SessionType)
	if r.Desktop != nil {
		xw := "no Xwayland"
		if r.Desktop.Xwayland != nil {
			xw = "Xwayland " + *r.Desktop.Xwayland
		}
		fmt.Fprintf(&b, "compositor %s, %s\n", r.Desktop.Compositor, xw)
	}

	b.WriteString("\nBackends:\n")
	width := 0
	for _, e := range r.Backends {
		width = max(width, len(e.ID))
	}
	for _, e := range r.Backends {
		need := "optional"
		if e.Required {
			need = "required"
		}
		fmt.Fprintf(&b, "  %-*s  %-11s  %-8s", width, e.ID, e.Status, need)
		if e.ReasonCode != nil {
			fmt.Fprintf(&b, "  %s", *e.ReasonCode)
		}
		b.WriteString("\n")
	}

	if len(r.Capabilities) > 0 {
		b.WriteString("\nCapabilities:\n")
		byStatus := map[string][]string{}
		var order []string
		for _, c := range r.Capabilities {
			if _, seen := byStatus[c.Status]; !seen {
				order = append(order, c.Status)
			}
			byStatus[c.Status] = append(byStatus[c.Status], c.Name)
		}
		for _, st := range order {
			fmt.Fprintf(&b, "  %s: %s\n", st, strings.Join(byStatus[st], ", "))
		}
	}

	if len(r.Probes) > 0 {
		// Probe messages are the backend's own words; an app name in
		// one was escaped where the line was made.
		b.WriteString("\nChecks:\n")
		for _, p := range r.Probes {
			fmt.Fprintf(&b, "  [%s] %s: %s\n", p.Status, p.Label, p.Message)
		}
	}

	if len(r.NextSteps) > 0 {
		b.WriteString("\nNext steps:\n")
		for i, s := range r.NextSteps {
			var about []string
			if s.Backend != nil {
				about = append(about, *s.Backend)
			}
			if s.Permission != nil {
				about = append(about, *s.Permission+" permission")
			}
			tag := ""
			if s.Required {
				tag = " (required)"
			}
			fmt.Fprintf(&b, "  %d. %s%s [%s: %s]\n", i+1, s.Action, tag, s.ReasonCode, strings.Join(about, ", "))
		}
	}

	fmt.Fprintf(&b, "\nNetwork: %s (no telemetry, no update check).\n", r.Network.CodePaths)
	return b.String()
}
