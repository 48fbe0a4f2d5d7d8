package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native"
	"github.com/nish-driver/nish-driver/schema"
)

// doctorReport is the part of the doctor's JSON report the tests check.
type doctorReport struct {
	Ready       bool   `json:"ready"`
	SessionType string `json:"session_type"`
	Backends    []struct {
		ID         string  `json:"id"`
		Status     string  `json:"status"`
		ReasonCode *string `json:"reason_code"`
	} `json:"backends"`
}

// doctorJSON checks the doctor's JSON report against its schema and
// decodes it.
func doctorJSON(t *testing.T, out string) doctorReport {
	t.Helper()
	if err := schema.ValidateDoctor(json.RawMessage(out)); err != nil {
		t.Fatalf("report does not validate: %v\n%s", err, out)
	}
	var r doctorReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDoctor(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		wantExit  int
		wantReady bool
		session   string
	}{
		{"linux backend without a display", []string{"doctor", "--json"}, 1, false, "none"},
		{"linux backend named", []string{"doctor", "--json", "--backend", "linux"}, 1, false, "none"},
		{"mock backend", []string{"doctor", "--json", "--backend", "mock"}, 0, true, "mock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, exit := run(t, noDesktopEnv(t), tt.args...)
			if exit != tt.wantExit {
				t.Errorf("exit %d, want %d (stderr %q)", exit, tt.wantExit, errOut)
			}
			r := doctorJSON(t, out)
			if r.Ready != tt.wantReady || r.SessionType != tt.session {
				t.Errorf("ready %v session %q, want %v %q", r.Ready, r.SessionType, tt.wantReady, tt.session)
			}
			if !tt.wantReady {
				reasons := map[string]string{}
				for _, b := range r.Backends {
					if b.ReasonCode != nil {
						reasons[b.ID] = *b.ReasonCode
					}
				}
				if reasons["x11"] != "display_unreachable" || reasons["atspi"] != "atspi_bus_unreachable" {
					t.Errorf("reasons without a display = %v", reasons)
				}
			}
		})
	}
	t.Run("text", func(t *testing.T) {
		out, _, exit := run(t, noDesktopEnv(t), "doctor")
		if exit != 1 || !strings.Contains(out, "NOT READY") || !strings.Contains(out, "Next steps:") {
			t.Errorf("exit %d, text:\n%s", exit, out)
		}
		out, _, exit = run(t, noDesktopEnv(t), "doctor", "--backend", "mock")
		if exit != 0 || !strings.Contains(out, "doctor: READY") {
			t.Errorf("exit %d, text:\n%s", exit, out)
		}
	})
	t.Run("a built binary without a display does not say not built", func(t *testing.T) {
		out, _, exit := run(t, noDesktopEnv(t), "doctor", "--json")
		if exit != 1 || strings.Contains(out, `"not_built"`) || strings.Contains(out, "not built into") ||
			!strings.Contains(out, "built into this binary; it could not start") {
			t.Errorf("exit %d:\n%s", exit, out)
		}
	})
	t.Run("a display that does not answer", func(t *testing.T) {
		env := append(noDesktopEnv(t), "DISPLAY="+t.TempDir()+"/nothing:0")
		out, _, exit := run(t, env, "doctor", "--json")
		if exit != 1 || !strings.Contains(out, `"display_unreachable"`) {
			t.Errorf("exit %d:\n%s", exit, out)
		}
	})
}

func TestManifest(t *testing.T) {
	for _, backend := range []string{"linux", "mock"} {
		t.Run(backend, func(t *testing.T) {
			out, errOut, exit := run(t, noDesktopEnv(t), "manifest", "--backend", backend)
			if exit != 0 {
				t.Fatalf("exit %d: %s", exit, errOut)
			}
			var m struct {
				Name                   string `json:"name"`
				DriverVersion          string `json:"driver_version"`
				ContractVersion        string `json:"contract_version"`
				ToolsListSchemaVersion int    `json:"tools_list_schema_version"`
				Platform               string `json:"platform"`
				Tools                  []struct {
					Name        string          `json:"name"`
					Description string          `json:"description"`
					InputSchema json.RawMessage `json:"input_schema"`
				} `json:"tools"`
				Capabilities []struct {
					Name    string `json:"name"`
					Status  string `json:"status"`
					Consent string `json:"consent"`
				} `json:"capabilities"`
			}
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatalf("manifest is not JSON: %v\n%s", err, out)
			}
			if m.Name != "nish-driver" || m.DriverVersion != engine.DriverVersion || m.ContractVersion != "0.8.0" ||
				m.ToolsListSchemaVersion != 1 || m.Platform != "linux" {
				t.Errorf("header = %q %q %q %d %q", m.Name, m.DriverVersion, m.ContractVersion, m.ToolsListSchemaVersion, m.Platform)
			}
			var names []string
			for _, tool := range m.Tools {
				names = append(names, tool.Name)
				if tool.Description == "" {
					t.Errorf("%s has no description", tool.Name)
				}
				if n := len(tool.InputSchema); n == 0 || n >= 12000 {
					t.Errorf("%s: input schema is %d bytes, want 1..11,999", tool.Name, n)
				}
				var s struct {
					Type string `json:"type"`
				}
				if err := json.Unmarshal(tool.InputSchema, &s); err != nil || s.Type != "object" {
					t.Errorf("%s: input schema root is not an object", tool.Name)
				}
			}
			if !slices.Equal(names, engine.ToolNames()) {
				t.Errorf("tools = %v, want %v", names, engine.ToolNames())
			}
			var capNames, wantCaps []string
			for _, c := range m.Capabilities {
				capNames = append(capNames, c.Name)
			}
			for _, c := range engine.CapabilityTable() {
				wantCaps = append(wantCaps, c.Name)
			}
			if !slices.Equal(capNames, wantCaps) {
				t.Errorf("capabilities = %v, want the table's %v", capNames, wantCaps)
			}
			for _, c := range m.Capabilities {
				if backend == "linux" && c.Status == "available" {
					t.Errorf("linux without a display reports %s available", c.Name)
				}
				if c.Consent == "" {
					t.Errorf("%s has no consent kind", c.Name)
				}
			}
		})
	}
}

func TestVersion(t *testing.T) {
	out, _, exit := run(t, noDesktopEnv(t), "version")
	want := "nish-driver " + engine.DriverVersion + " (contract 0.8.0, tools_list_schema_version 1)\n"
	if exit != 0 || out != want {
		t.Errorf("exit %d, out %q, want %q", exit, out, want)
	}
}

func TestBadFlagsAreRefused(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"control-in without control-out", []string{"mcp", "--backend", "mock", "--control-in", "7"}, "go together"},
		{"control fd that is not open", []string{"mcp", "--backend", "mock", "--control-in", "57", "--control-out", "58"}, "not an open descriptor"},
		{"control on stdout", []string{"mcp", "--backend", "mock", "--control-in", "0", "--control-out", "1"}, "standard descriptors"},
		{"unknown backend", []string{"doctor", "--backend", "windows"}, "must be one of"},
		{"unknown consent", []string{"mcp", "--backend", "mock", "--mock-consent", "maybe"}, "must be one of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, exit := run(t, noDesktopEnv(t), tt.args...)
			if exit == 0 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q, want it to say %q", exit, errOut, tt.want)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// TestFlagDefaultsAreTheirOwners: a flag whose default another package
// owns takes it from there (kongOptions), for each command that has it.
func TestFlagDefaultsAreTheirOwners(t *testing.T) {
	for _, args := range [][]string{{"mcp"}, {"daemon"}} {
		var c cli
		k, err := kong.New(&c, kongOptions()...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Parse(args); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{"mcp": c.MCP.KillSwitch, "daemon": c.Daemon.KillSwitch}[args[0]]
		if got != native.DefaultKillSwitch {
			t.Errorf("%s --kill-switch defaults to %q, not native.DefaultKillSwitch %q", args[0], got, native.DefaultKillSwitch)
		}
	}
}
