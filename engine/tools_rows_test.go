package engine

import (
	"context"
	"strings"
	"testing"
)

// TestToolRowsAreCheckedAtStartUp: checkTools, which mustTools runs when the
// package starts, refuses every row a call could not run, and passes the
// real table.
func TestToolRowsAreCheckedAtStartUp(t *testing.T) {
	handler := func(context.Context, *Conn, *Args) Result { return Result{} }
	act := func(*act) (func(context.Context) *Error, *Error) { return nil, nil }
	good := ToolSpec{Name: "a", Kind: KindRead, Description: "reads", handler: handler}
	cases := []struct {
		name string
		rows []ToolSpec
		want string // part of the error; "" for none
	}{
		{"the real table", toolTable, ""},
		{"a handler", []ToolSpec{good}, ""},
		{"an act spec", []ToolSpec{{Name: "b", Kind: KindAct, Description: "acts", act: act}}, ""},
		{"no behaviour", []ToolSpec{{Name: "b", Kind: KindAct, Description: "acts"}}, "exactly one"},
		{"both behaviours", []ToolSpec{{Name: "b", Kind: KindAct, Description: "acts", handler: handler, act: act}}, "exactly one"},
		{"an act spec on a read tool", []ToolSpec{{Name: "b", Kind: KindRead, Description: "reads", act: act}}, "not an act"},
		{"two rows of one name", []ToolSpec{good, good}, "two rows"},
		{"no name", []ToolSpec{{Kind: KindRead, Description: "reads", handler: handler}}, "no name"},
		{"no kind", []ToolSpec{{Name: "b", Description: "reads", handler: handler}}, "no kind"},
		{"no description", []ToolSpec{{Name: "b", Kind: KindRead, handler: handler}}, "no description"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := checkTools(c.rows)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want an error about %q", err, c.want)
			}
		})
	}
}
