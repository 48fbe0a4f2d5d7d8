// Package enginekit is an engine driver on a mock desktop as the tests of
// the engine, the MCP layer and the hosts use it: started and connected
// with the test's clean-up, and the check every tool result is held to (the
// schemas, the failure text's shape, no secret).
//
// It is apart from package testkit because it imports the engine, its mock
// and the schemas, which the native layers' tests must not reach.
package enginekit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/schema"
)

// Start starts a driver on desk with o. o.Backend, when nil, is desk (a
// test that steps into the engine's calls to its backend puts its own in
// front of desk); o.Clock, when set, is the desktop's clock too. When the
// test ends the driver shuts down (every session ends) and desk closes.
func Start(tb testing.TB, desk *mock.Desktop, o engine.Options) *engine.Driver {
	tb.Helper()
	if o.Backend == nil {
		o.Backend = desk
	}
	if o.Clock != nil {
		desk.SetClock(o.Clock)
	}
	d := engine.New(o)
	tb.Cleanup(func() {
		d.Shutdown()
		desk.Close()
	})
	return d
}

// Connect opens a connection on d for the host name with process pid. It
// closes when the test ends, before a driver from Start shuts down.
func Connect(tb testing.TB, d *engine.Driver, name string, pid int) *engine.Conn {
	tb.Helper()
	c := d.Connect(engine.ClientInfo{Name: name, Pid: pid})
	tb.Cleanup(c.Close)
	return c
}

// secrets are what no result may carry: the mock form's password and the
// key on the mock editor's secret line (mock.EditorSecretLine).
var secrets = []string{mock.PasswordCanary, "AKIAIOSFODNN7EXAMPLE"}

// Check holds one tool result to the contract: a success to the tool's
// output schema; a failure to the error envelope's schema, with text that
// starts with its code and says whether to retry; and neither may carry a
// secret of the mock desktop.
func Check(tb testing.TB, tool string, res engine.Result) {
	tb.Helper()
	out, err := json.Marshal(res.Structured)
	if err != nil {
		tb.Fatalf("%s: result does not marshal: %v", tool, err)
	}
	var doc any
	_ = json.Unmarshal(out, &doc)
	if res.Err != nil {
		if err := schema.ValidateError(doc); err != nil {
			tb.Fatalf("%s: failure breaks the error schema: %v\n%s", tool, err, out)
		}
		prefix := string(res.Err.Code) + ": "
		if !strings.HasPrefix(res.Text, prefix) || !strings.Contains(res.Text, "[retry: ") {
			tb.Fatalf("%s: failure text %q", tool, res.Text)
		}
	} else if err := schema.ValidateOutput(tool, doc); err != nil {
		tb.Fatalf("%s: result breaks the output schema: %v\n%s", tool, err, out)
	}
	for _, secret := range secrets {
		if strings.Contains(string(out), secret) || strings.Contains(res.Text, secret) {
			tb.Fatalf("%s: a secret leaked into the result", tool)
		}
	}
}
