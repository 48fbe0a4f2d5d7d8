package schema

import (
	"slices"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// engineConsts reads the string constants of the engine package's source
// whose type is typ, or, untyped, whose name starts with prefix: the values
// a wire enum may hold. Reading the source rather than a list means a
// constant added there is checked here at once.
func engineConsts(t *testing.T, typ, prefix string) []string {
	t.Helper()
	_, files := testkit.GoSources(t, "engine")
	var out []string
	for _, c := range testkit.StringConsts(files) {
		if typ != "" && c.Type == typ || c.Type == "" && prefix != "" && strings.HasPrefix(c.Name, prefix) {
			out = append(out, c.Value)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no engine constant of type %q or prefix %q: the scan is wrong", typ, prefix)
	}
	slices.Sort(out)
	return out
}

// enumAt is the enum of the schema file name at the path of keys.
func enumAt(t *testing.T, name string, keys ...string) []string {
	t.Helper()
	raw, ok := loaded[name]
	if !ok {
		t.Fatalf("no schema %s", name)
	}
	var node any = decode(t, name, raw)
	for _, k := range keys {
		m, ok := node.(map[string]any)
		if !ok {
			t.Fatalf("%s: nothing at %s", name, strings.Join(keys, "/"))
		}
		node = m[k]
	}
	m, _ := node.(map[string]any)
	e, ok := m["enum"]
	if !ok {
		t.Fatalf("%s: no enum at %s", name, strings.Join(keys, "/"))
	}
	var out []string
	for _, v := range enumOf(t, e) {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// TestWireEnumsAreTheEngines: each enum a result schema gives is the set
// of constants the engine writes there. A value the engine writes and the
// schema lacks fails every result that carries it; a value the schema
// lists and the engine never writes promises what the driver does not
// do, unless the contract names it for a tool this driver does not serve
// (contractOnly).
func TestWireEnumsAreTheEngines(t *testing.T) {
	prop := func(keys ...string) []string {
		var out []string
		for _, k := range keys {
			out = append(out, "properties", k)
		}
		return out
	}
	errorBody := func(key string) []string {
		return append([]string{"definitions", "error_body"}, prop(key)...)
	}
	cases := []struct {
		name   string
		engine []string
		file   string
		path   []string
		// contractOnly: values the contract defines for what this driver
		// does not serve.
		contractOnly []string
	}{
		{"act paths", engineConsts(t, "Path", ""), "output/act.json", prop("path"), []string{"app_action"}},
		{"act readback", engineConsts(t, "", "Readback"), "output/act.json", prop("readback"), nil},
		{"app_action readback", engineConsts(t, "", "Readback"), "output/app_action.json", prop("readback"), nil},
		{"pause reasons in errors", engineConsts(t, "PauseReason", ""), "error.json", errorBody("paused_reason"), nil},
		{"pause reasons in the session", engineConsts(t, "PauseReason", ""), "output/session.json", prop("takeover", "paused_reason"), nil},
		{"accessibility switch", engineConsts(t, "", "Switch"), "output/session.json", prop("accessibility_switch"), nil},
		{"read hints", engineConsts(t, "", "Hint"), "output/get_window_state.json", prop("accessibility_hint", "code"), nil},
		{"find hints", engineConsts(t, "", "Hint"), "output/find_elements.json", prop("accessibility_hint", "code"), nil},
		{"compositors", engineConsts(t, "", "Compositor"), doctorFile, prop("desktop", "compositor"), nil},
		{"doctor reason codes", sorted(doctor.Reasons()), doctorFile, []string{"definitions", "reason_code"}, nil},
		{"health reason codes", sorted(doctor.Reasons()), "output/health_report.json", []string{"definitions", "reason_code"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := sorted(append(slices.Clone(c.engine), c.contractOnly...))
			if got := enumAt(t, c.file, c.path...); !slices.Equal(got, want) {
				t.Errorf("%s %s: enum %v\nthe engine writes %v (and the contract names %v)", c.file, strings.Join(c.path, "/"), got, c.engine, c.contractOnly)
			}
		})
	}

	// Effects: an act result's and an error's together are the engine's.
	effects := sorted(append(enumAt(t, "output/act.json", prop("effect")...), enumAt(t, "error.json", errorBody("effect")...)...))
	if want := engineConsts(t, "Effect", ""); !slices.Equal(effects, want) {
		t.Errorf("the effects of act.json and error.json %v, the engine's %v", effects, want)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
