package wire

import (
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestSDKErrorsWithoutACodeAreCodedByTheLifecycle: the SDK refuses a call
// before initialize, a second initialize and an initialize it cannot read
// without a JSON-RPC code; each gets the code of the client's mistake and
// a fixed message, and only an error without a code on an open session is
// -32603. Coded errors keep their code whatever the lifecycle.
func TestSDKErrorsWithoutACodeAreCodedByTheLifecycle(t *testing.T) {
	codeless := errors.New(`method "tools/call" is invalid during session initialization`)
	cases := []struct {
		name   string
		err    error
		method string
		open   bool
		code   int64
		msg    string
	}{
		{"a call before initialize", codeless, "tools/call", false, codeInvalidRequest, msgNotInitialized},
		{"a list before initialize", codeless, "tools/list", false, codeInvalidRequest, msgNotInitialized},
		{"a second initialize", codeless, "initialize", true, codeInvalidRequest, msgAlreadyInitialized},
		{"an initialize the SDK cannot read", codeless, "initialize", false, codeInvalidParams, msgInvalidParams},
		{"no code on an open session", codeless, "tools/call", true, codeInternalError, msgInternal},
		{"a coded error before initialize keeps its code", &jsonrpc.Error{Code: codeMethodNotFound, Message: "x"}, "nope", false, codeMethodNotFound, "method not found"},
		{"a coded internal error", &jsonrpc.Error{Code: codeInternalError, Message: "x"}, "tools/call", true, codeInternalError, msgInternal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, msg := publicError(c.err, lifecycle{method: c.method, open: c.open})
			if code != c.code || msg != c.msg {
				t.Fatalf("got %d %q, want %d %q", code, msg, c.code, c.msg)
			}
		})
	}
}

// TestOpeningCalls: the calls whose result opens an MCP session, and no
// others.
func TestOpeningCalls(t *testing.T) {
	for method, want := range map[string]bool{
		"initialize": true, "server/discover": true,
		"ping": false, "tools/call": false, "tools/list": false, "notifications/initialized": false,
	} {
		if Opens(method) != want {
			t.Errorf("Opens(%q) = %v, want %v", method, !want, want)
		}
	}
}
