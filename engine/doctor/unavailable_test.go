package doctor

import (
	"net"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

func TestNotBuiltNamesTheFirstObstacle(t *testing.T) {
	tests := []struct {
		name        string
		facts       Facts
		sessionType string
		x11, atspi  string
		accessMiss  bool
	}{
		{"no display, no bus", Facts{}, "none", ReasonDisplayUnreachable, ReasonAtspiBusUnreachable, true},
		{"display set but silent", Facts{Display: ":7", DisplayLocal: true, SessionBus: true}, "none", ReasonDisplayUnreachable, ReasonNotBuilt, false},
		{"remote display", Facts{Display: "far:10.0", SessionBus: true}, "none", ReasonDisplayNotLocal, ReasonNotBuilt, false},
		{"wayland session", Facts{Display: ":0", DisplayLocal: true, DisplayAnswers: true, Wayland: true, SessionBus: true}, "wayland", ReasonWaylandSessionUnsupported, ReasonNotBuilt, false},
		{"reachable x11: only the build is missing", Facts{Display: ":0", DisplayLocal: true, DisplayAnswers: true, SessionBus: true}, "x11", ReasonNotBuilt, ReasonNotBuilt, false},
		{"built, only DISPLAY missing", Facts{SessionBus: true, Built: true}, "none", ReasonDisplayUnreachable, ReasonDisplayUnreachable, false},
		{"built, no display and no bus", Facts{Built: true}, "none", ReasonDisplayUnreachable, ReasonAtspiBusUnreachable, true},
		{"built, a Wayland session", Facts{Display: ":0", DisplayLocal: true, DisplayAnswers: true, Wayland: true, SessionBus: true, Built: true}, "wayland", ReasonWaylandSessionUnsupported, ReasonWaylandSessionUnsupported, false},
		{"built, the display answers but would not open", Facts{Display: ":0", DisplayLocal: true, DisplayAnswers: true, SessionBus: true, Built: true, Cause: "xlib: cannot open display"}, "x11", ReasonDisplayUnreachable, ReasonDisplayUnreachable, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := Unavailable(tt.facts)
			if reg.SessionType != tt.sessionType {
				t.Errorf("session type = %q, want %q", reg.SessionType, tt.sessionType)
			}
			got := map[string]engine.BackendEntry{}
			for _, b := range reg.Backends {
				got[b.ID] = b
			}
			if b := got["x11"]; b.Status != "unavailable" || !b.Required || b.ReasonCode != tt.x11 || b.Action == "" {
				t.Errorf("x11 = %+v, want unavailable %s", b, tt.x11)
			}
			if b := got["atspi"]; b.Status != "unavailable" || !b.Required || b.ReasonCode != tt.atspi || b.Action == "" {
				t.Errorf("atspi = %+v, want unavailable %s", b, tt.atspi)
			}
			missing := false
			for _, p := range reg.Permissions {
				if p.Name == "accessibility" && p.Status == "missing" {
					missing = true
				}
			}
			if missing != tt.accessMiss {
				t.Errorf("accessibility missing = %v, want %v", missing, tt.accessMiss)
			}
			for _, p := range reg.Probes {
				if p.Label == "native backend" && strings.Contains(p.Message, "not built") == tt.facts.Built {
					t.Errorf("native backend probe %q for a binary built: %v", p.Message, tt.facts.Built)
				}
				if p.Label == "native backend" && tt.facts.Cause != "" && !strings.Contains(p.Message, tt.facts.Cause) {
					t.Errorf("native backend probe %q drops the cause", p.Message)
				}
			}
			r := Build(reg)
			if r.Ready || r.OK {
				t.Error("a build without the native backend reported ready")
			}
			if len(r.Capabilities) != len(engine.CapabilityTable()) {
				t.Errorf("%d capabilities, want the table's %d", len(r.Capabilities), len(engine.CapabilityTable()))
			}
			for _, c := range r.Capabilities {
				if c.Status == "available" {
					t.Errorf("capability %s available without a backend", c.Name)
				}
			}
			if len(r.NextSteps) == 0 || !r.NextSteps[0].Required {
				t.Errorf("next steps = %+v, want a required first step", r.NextSteps)
			}
		})
	}
}

func TestDisplaySockets(t *testing.T) {
	tests := []struct {
		display string
		sockets []string
		local   bool
	}{
		{":0", []string{"/tmp/.X11-unix/X0", "@/tmp/.X11-unix/X0"}, true},
		{":12.0", []string{"/tmp/.X11-unix/X12", "@/tmp/.X11-unix/X12"}, true},
		{"unix:3", []string{"/tmp/.X11-unix/X3", "@/tmp/.X11-unix/X3"}, true},
		{"localhost:10.0", nil, false},
		{"example.org:0", nil, false},
		{"/private/tmp/launch/org.xquartz:0", []string{"/private/tmp/launch/org.xquartz"}, true},
		{"garbage", nil, false},
		{":x", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.display, func(t *testing.T) {
			s, local := displaySockets(tt.display)
			if !reflect.DeepEqual(s, tt.sockets) || local != tt.local {
				t.Errorf("displaySockets(%q) = %v %v, want %v %v", tt.display, s, local, tt.sockets, tt.local)
			}
		})
	}
}

func TestGatherFactsProbesSockets(t *testing.T) {
	dir := t.TempDir()
	listen := func(name string) string {
		p := filepath.Join(dir, name)
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		return p
	}
	bus := listen("bus")
	disp := listen("x")
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	tests := []struct {
		name    string
		display string
		env     map[string]string
		want    Facts
	}{
		{"nothing set", "", map[string]string{}, Facts{}},
		{"bus by address, display by path", "", map[string]string{
			"DISPLAY": disp + ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + bus + ",guid=abc",
		}, Facts{Display: disp + ":0", DisplayLocal: true, DisplayAnswers: true, SessionBus: true}},
		{"bus by runtime dir, --display wins", disp + ":0", map[string]string{
			"DISPLAY": ":99", "XDG_RUNTIME_DIR": dir,
		}, Facts{Display: disp + ":0", DisplayLocal: true, DisplayAnswers: true, SessionBus: true}},
		{"dead sockets", "", map[string]string{
			"DISPLAY": filepath.Join(dir, "none") + ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + filepath.Join(dir, "nobus"),
		}, Facts{Display: filepath.Join(dir, "none") + ":0", DisplayLocal: true}},
		{"wayland", "", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, Facts{Wayland: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GatherFacts(tt.display, env(tt.env)); got != tt.want {
				t.Errorf("GatherFacts = %+v, want %+v", got, tt.want)
			}
		})
	}
}
