// Package enginecall runs tool calls on an engine connection for tests:
// the call with a bound, the call that must succeed and the one that must
// fail with a given code, each giving back the result as a model's client
// would decode it.
//
// It is apart from package testkit because it imports the engine, which
// the native layers' tests must not reach.
package enginecall

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// defaultBound is how long one call may take when a Caller names no bound:
// a hang guard, far above any call's normal time.
const defaultBound = 20 * time.Second

// Caller runs tool calls on one engine connection.
type Caller struct {
	T    testing.TB
	Conn *engine.Conn
	// Bound is each call's deadline (0: 20 s).
	Bound time.Duration
	// Check, when set, sees every result (a harness validates schemas
	// there).
	Check func(tool string, res engine.Result)
}

// Call runs one call with arguments as given (any JSON value).
func (c Caller) Call(tool string, args any) engine.Result {
	c.T.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		c.T.Fatal(err)
	}
	bound := c.Bound
	if bound == 0 {
		bound = defaultBound
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	res := c.Conn.Call(ctx, tool, b)
	if c.Check != nil {
		c.Check(tool, res)
	}
	return res
}

// OK runs a call that must succeed and returns its decoded result.
func (c Caller) OK(tool string, args map[string]any) map[string]any {
	c.T.Helper()
	res := c.Call(tool, orEmpty(args))
	if res.Err != nil {
		c.T.Fatalf("%s %v: want success, got %s", tool, args, res.Text)
	}
	return testkit.Decode(c.T, res.Structured)
}

// Fail runs a call that must fail with code and returns its decoded error
// object (the envelope's "error" member).
func (c Caller) Fail(code engine.Code, tool string, args map[string]any) map[string]any {
	c.T.Helper()
	res := c.Call(tool, orEmpty(args))
	if res.Err == nil {
		c.T.Fatalf("%s %v: want %s, got success: %s", tool, args, code, res.Text)
	}
	if res.Err.Code != code {
		c.T.Fatalf("%s %v: want %s, got %s", tool, args, code, res.Text)
	}
	e, _ := testkit.Decode(c.T, res.Structured)["error"].(map[string]any)
	return e
}

// orEmpty is args, or an empty object for nil (a call with no arguments
// sends {}).
func orEmpty(args map[string]any) map[string]any {
	if args == nil {
		return map[string]any{}
	}
	return args
}
