package engine

import (
	"strings"
	"testing"
)

func TestArgsFollowTheContractsTypeRules(t *testing.T) {
	a, err := ParseArgs([]byte(`{"skeleton":"true","n":5,"big":1e9,"frac":2.5,"s":"x","mode":"fast","input":3,"obj":{"tree":true},"unknown":[1,2]}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.Bool("skeleton", false) {
		t.Error(`skeleton:"true" must be treated as absent`)
	}
	if v, ok, e := a.Int("n", 1, 10); e != nil || !ok || v != 5 {
		t.Errorf("n: %v %v %v", v, ok, e)
	}
	if _, ok, e := a.Int("big", 1, 10); e == nil || !ok || e.Code != CodeInvalidArguments {
		t.Errorf("out of range must be invalid_arguments, got %v", e)
	}
	if _, _, e := a.Int("frac", 1, 10); e == nil {
		t.Error("a fractional integer must be invalid_arguments")
	}
	if _, ok, e := a.Int("s", 1, 10); ok || e != nil {
		t.Error("a string where an integer goes must be absent")
	}
	if _, ok, e := a.Enum("mode", "slow"); !ok || e == nil {
		t.Error("an enum value outside the list must be invalid_arguments")
	}
	if _, ok, e := a.StrictEnum("input", "headless", "takeover"); !ok || e == nil {
		t.Error("input of another type must be invalid_arguments")
	}
	if _, ok, e := a.Enum("input", "headless"); ok || e != nil {
		t.Error("Enum treats another type as absent")
	}
	if o, ok := a.Object("obj"); !ok || !o.Bool("tree", false) {
		t.Error("object argument")
	}
	if _, ok := a.Object("s"); ok {
		t.Error("a string is not an object")
	}
}

func TestParseArgsRefusesNonObjects(t *testing.T) {
	for _, raw := range []string{`[1]`, `"x"`, `5`, `{bad json`, `true`} {
		if _, err := ParseArgs([]byte(raw)); err == nil {
			t.Errorf("%s: want invalid_arguments", raw)
		}
	}
	for _, raw := range []string{``, `null`, `{}`, ` {} `} {
		if _, err := ParseArgs([]byte(raw)); err != nil {
			t.Errorf("%q: %v", raw, err)
		}
	}
	huge := `{"s":"` + strings.Repeat("a", MaxArgumentBytes) + `"}`
	if _, err := ParseArgs([]byte(huge)); err == nil {
		t.Error("arguments over the limit must be refused")
	}
}

func TestStringLimitCountsRunes(t *testing.T) {
	a := ArgsFromMap(map[string]any{"s": strings.Repeat("é", 10)})
	if _, _, e := a.String("s", 10); e != nil {
		t.Errorf("10 runes fit a 10-rune limit: %v", e)
	}
	if _, _, e := a.String("s", 9); e == nil {
		t.Error("11 runes must not fit")
	}
}
