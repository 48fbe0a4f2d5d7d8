package mcpkit

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/schema"
)

// Envelope is a failed call's error, as its structuredContent names it.
type Envelope struct {
	Code        string `json:"code"`
	Message     string `json:"message"`
	Disposition struct {
		Retry string `json:"retry"`
	} `json:"disposition"`
	Suggestion string `json:"suggestion"`
}

// Failure checks the contract's shape of a failed call
// (docs/contract.md#error-envelope): isError, an envelope {ok: false,
// error} that validates, one text block that is the failure text made from
// it, a code whose disposition and suggestion are the error table's, and
// none of the injected strings anywhere in it. It returns the error.
func Failure(t testing.TB, what string, res *mcp.CallToolResult, injected ...string) Envelope {
	t.Helper()
	if !res.IsError {
		t.Fatalf("%s: the call succeeded: %s", what, Structured(t, res))
	}
	raw := Structured(t, res)
	if err := schema.ValidateError(raw); err != nil {
		t.Errorf("%s: structuredContent does not validate: %v\n%s", what, err, raw)
	}
	var env struct {
		OK    *bool     `json:"ok"`
		Error *Envelope `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || env.OK == nil || *env.OK || env.Error == nil {
		t.Fatalf("%s: structuredContent is not {ok:false, error}: %s", what, raw)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want one text block", what, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", what, res.Content[0])
	}
	e := *env.Error
	want := fmt.Sprintf("%s: %s [retry: %s] %s", e.Code, e.Message, e.Disposition.Retry, e.Suggestion)
	if tc.Text != want {
		t.Errorf("%s: text\n got  %q\n want %q", what, tc.Text, want)
	}
	// The engine renders a code's row of the table (or internal, for a code
	// not in it).
	if row := (&engine.Error{Code: engine.Code(e.Code)}).Body(); string(row.Code) != e.Code || string(row.Disposition.Retry) != e.Disposition.Retry || row.Suggestion != e.Suggestion {
		t.Errorf("%s: code %s does not match the table (retry %s)", what, e.Code, e.Disposition.Retry)
	}
	for _, s := range injected {
		if strings.Contains(tc.Text, s) || strings.Contains(string(raw), s) {
			t.Errorf("%s: the injected string %q came back in the error: %s", what, s, cut(tc.Text, 300))
		}
	}
	return e
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
