package engine

import (
	"math"
	"strconv"
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

// A JSON number is a number however large (docs/contract.md#arguments):
// one that float64 cannot hold is of the right type and out of range, so
// Int and Number refuse it with invalid_arguments naming the argument, and
// never read it as absent. A float64 keeps its own range rules.
func TestNumbersBeyondFloat64AreInvalidNotAbsent(t *testing.T) {
	digits400 := "1" + strings.Repeat("0", 400)
	cases := []struct {
		name  string
		raw   string // the argument's JSON
		isInt bool   // Int(-2^53, 2^53) takes it
		isNum bool   // Number takes it
		want  float64
	}{
		{"1e400", `1e400`, false, false, 0},
		{"-1e400", `-1e400`, false, false, 0},
		{"1.8e308, just past float64", `1.8e308`, false, false, 0},
		{"a 400-digit integer", digits400, false, false, 0},
		{"a negative 400-digit integer", "-" + digits400, false, false, 0},
		{"1e308, a float64 out of the integer range", `1e308`, false, true, 1e308},
		{"-1e308", `-1e308`, false, true, -1e308},
		{"the largest float64", `1.7976931348623157e308`, false, true, math.MaxFloat64},
		{"a 30-digit integer, a float64 out of the integer range", `123456789012345678901234567890`, false, true, 123456789012345678901234567890},
		{"2^53, in range", `9007199254740992`, true, true, 1 << 53},
		{"1e2 written as an exponent", `1e2`, true, true, 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ParseArgs([]byte(`{"max_results":` + c.raw + `}`))
			if err != nil {
				t.Fatal(err)
			}
			v, ok, e := a.Int("max_results", -(1 << 53), 1<<53)
			switch {
			case !ok:
				t.Fatalf("Int: %s read as absent", c.raw)
			case c.isInt && (e != nil || float64(v) != c.want):
				t.Fatalf("Int: got %v %v, want %v", v, e, c.want)
			case !c.isInt && (e == nil || e.Code != CodeInvalidArguments || !strings.HasPrefix(e.Message, "max_results ")):
				t.Fatalf("Int: got %v %v, want invalid_arguments naming max_results", v, e)
			}
			f, ok, e := a.Number("max_results")
			switch {
			case !ok:
				t.Fatalf("Number: %s read as absent", c.raw)
			case c.isNum && (e != nil || f != c.want):
				t.Fatalf("Number: got %v %v, want %v", f, e, c.want)
			case !c.isNum && (e == nil || e.Code != CodeInvalidArguments || !strings.HasPrefix(e.Message, "max_results ")):
				t.Fatalf("Number: got %v %v, want invalid_arguments naming max_results", f, e)
			}
		})
	}
	// Another type stays absent, as before.
	a, _ := ParseArgs([]byte(`{"n":"1e400"}`))
	if _, ok, e := a.Number("n"); ok || e != nil {
		t.Error("a string where a number goes must be absent")
	}
}

// IntOr and Token keep Int's and String's type rules (another type is
// absent) and add what an absent argument is: the default, or no token.
func TestIntOrAndTokenOfAbsentAndWrongTypes(t *testing.T) {
	a, err := ParseArgs([]byte(`{"n":7,"s":"x","far":500,"tok":"s3:12","long":"` + strings.Repeat("x", 65) + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	const invalid = "invalid"
	// Each argument as IntOr(arg, 1, 100, 20) and as Token(arg) read it.
	cases := []struct {
		arg          string
		intOr, token string
	}{
		{"n", "7", ""},
		{"missing", "20", ""},
		{"s", "20", invalid},
		{"far", invalid, ""},
		{"tok", "20", "s3:12"},
		{"long", "20", invalid},
	}
	for _, c := range cases {
		v, e := a.IntOr(c.arg, 1, 100, 20)
		got := strconv.FormatInt(v, 10)
		if e != nil {
			got = invalid
		}
		if got != c.intOr {
			t.Errorf("IntOr(%s) = %s, want %s", c.arg, got, c.intOr)
		}
		tok, e := a.Token(c.arg)
		got = ""
		switch {
		case e != nil && e.Code == CodeInvalidArguments:
			got = invalid
		case e != nil:
			got = string(e.Code)
		case tok != nil:
			got = tok.String()
		}
		if got != c.token {
			t.Errorf("Token(%s) = %s, want %s", c.arg, got, c.token)
		}
	}
}
