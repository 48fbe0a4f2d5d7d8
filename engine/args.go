package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Args decodes a tool's arguments by the contract's rules
// (docs/contract.md#arguments): unknown arguments are ignored; an argument of
// the wrong type is treated as absent (skeleton:"true" is a normal read),
// except input, which is invalid_arguments; a value of the right type that
// the tool cannot take (out of range, not in the enum, a malformed token) is
// invalid_arguments.
type Args struct {
	raw map[string]json.RawMessage
}

// MaxArgumentBytes bounds one call's arguments; larger calls are refused
// before any parsing work proportional to their content.
const MaxArgumentBytes = 4 << 20

// ParseArgs reads the arguments object. Absent or null arguments are an
// empty object; anything that is not an object is invalid_arguments.
func ParseArgs(raw json.RawMessage) (*Args, error) {
	a := &Args{raw: map[string]json.RawMessage{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return a, nil
	}
	if len(raw) > MaxArgumentBytes {
		return nil, Errf(CodeInvalidArguments, "arguments exceed %d bytes", MaxArgumentBytes)
	}
	if raw[0] != '{' {
		return nil, Errf(CodeInvalidArguments, "arguments must be an object")
	}
	if err := json.Unmarshal(raw, &a.raw); err != nil {
		return nil, Errf(CodeInvalidArguments, "arguments are not valid JSON")
	}
	return a, nil
}

// ArgsFromMap builds Args from already-decoded values (tests, the daemon).
func ArgsFromMap(m map[string]any) *Args {
	b, _ := json.Marshal(m)
	a, _ := ParseArgs(b)
	return a
}

func (a *Args) get(name string) (json.RawMessage, bool) {
	v, ok := a.raw[name]
	if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil, false
	}
	return v, true
}

// Has reports whether an argument is present (not null), whatever its type.
func (a *Args) Has(name string) bool {
	_, ok := a.get(name)
	return ok
}

// Bool returns a boolean argument; absent or wrong-typed is def.
func (a *Args) Bool(name string, def bool) bool {
	v, ok := a.get(name)
	if !ok {
		return def
	}
	var b bool
	if json.Unmarshal(v, &b) != nil {
		return def
	}
	return b
}

// String returns a string argument and whether it was present with the
// right type. A string longer than maxRunes is invalid_arguments.
func (a *Args) String(name string, maxRunes int) (string, bool, *Error) {
	v, ok := a.get(name)
	if !ok || len(v) == 0 || v[0] != '"' {
		return "", false, nil
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false, nil
	}
	if maxRunes > 0 && utf8.RuneCountInString(s) > maxRunes {
		return "", true, Errf(CodeInvalidArguments, "%s is longer than %d characters", name, maxRunes)
	}
	return s, true, nil
}

// number reads a JSON number argument; another type is absent. A JSON
// number is a number however large: one that float64 cannot hold (1e400,
// -1e400, a 400-digit integer) comes back present as ±Inf, out of every
// range, so each caller refuses it as invalid_arguments. (json.Unmarshal
// fails on such a number with a range error, and reading that failure as a
// wrong type made max_results: 1e400 the default 20.)
func (a *Args) number(name string) (float64, bool) {
	v, ok := a.get(name)
	if !ok || len(v) == 0 || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return 0, false
	}
	// v is a valid JSON number (ParseArgs decoded it), so the only error
	// is a range error, and f is then ±Inf.
	f, _ := strconv.ParseFloat(string(v), 64)
	return f, true
}

// Int returns an integer argument within [min, max]. A number that is not
// an integer, or out of range (too large for float64 included), is
// invalid_arguments; another type is absent.
func (a *Args) Int(name string, min, max int64) (int64, bool, *Error) {
	f, ok := a.number(name)
	if !ok {
		return 0, false, nil
	}
	if f != math.Trunc(f) {
		return 0, true, Errf(CodeInvalidArguments, "%s must be a whole number", name)
	}
	if f < float64(min) || f > float64(max) {
		return 0, true, Errf(CodeInvalidArguments, "%s must be between %d and %d", name, min, max)
	}
	return int64(f), true, nil
}

// IntOr is Int with def for an absent argument.
func (a *Args) IntOr(name string, min, max, def int64) (int64, *Error) {
	v, ok, err := a.Int(name, min, max)
	if err != nil || !ok {
		return def, err
	}
	return v, nil
}

// Number returns a numeric argument; another type is absent. A number too
// large for float64 is invalid_arguments.
func (a *Args) Number(name string) (float64, bool, *Error) {
	f, ok := a.number(name)
	if !ok {
		return 0, false, nil
	}
	if math.IsInf(f, 0) {
		return 0, true, Errf(CodeInvalidArguments, "%s is out of range", name)
	}
	return f, true, nil
}

// Enum returns a string argument that must be one of values. A string
// outside the set is invalid_arguments; another type is absent.
func (a *Args) Enum(name string, values ...string) (string, bool, *Error) {
	s, ok, err := a.String(name, 64)
	if err != nil || !ok {
		return "", ok, err
	}
	if slices.Contains(values, s) {
		return s, true, nil
	}
	return "", true, Errf(CodeInvalidArguments, "%s must be one of %v", name, values)
}

// StrictEnum is Enum where a present value of any other type is
// invalid_arguments too (the contract's rule for input).
func (a *Args) StrictEnum(name string, values ...string) (string, bool, *Error) {
	if !a.Has(name) {
		return "", false, nil
	}
	s, ok, err := a.Enum(name, values...)
	if err != nil {
		return "", true, err
	}
	if !ok {
		return "", true, Errf(CodeInvalidArguments, "%s must be one of %v", name, values)
	}
	return s, true, nil
}

// Raw returns an argument's JSON (for arrays and objects), or nil.
func (a *Args) Raw(name string) json.RawMessage {
	v, _ := a.get(name)
	return v
}

// Token returns an element token argument, nil when absent. A string that
// is not a token is invalid_arguments.
func (a *Args) Token(name string) (*Token, *Error) {
	s, ok, err := a.String(name, 64)
	if err != nil {
		return nil, Errf(CodeInvalidArguments, "%s must look like <snapshot_id>:<N>", name)
	}
	if !ok {
		return nil, nil
	}
	t, terr := ParseToken(s)
	if terr != nil {
		return nil, terr
	}
	return &t, nil
}

// Object returns an object argument's fields; another type is absent.
func (a *Args) Object(name string) (*Args, bool) {
	v, ok := a.get(name)
	if !ok || len(v) == 0 || v[0] != '{' {
		return nil, false
	}
	sub, err := ParseArgs(v)
	if err != nil {
		return nil, false
	}
	return sub, true
}

// Array returns an array argument's items; another type is absent.
func (a *Args) Array(name string) ([]json.RawMessage, bool) {
	v, ok := a.get(name)
	if !ok || len(v) == 0 || v[0] != '[' {
		return nil, false
	}
	var items []json.RawMessage
	if json.Unmarshal(v, &items) != nil {
		return nil, false
	}
	return items, true
}
