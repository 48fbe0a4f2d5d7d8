package atspi

import (
	"context"
	"errors"
	"go/ast"
	"go/token"
	"net"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestCallAllowed checks the guard every encoded call passes: the listed
// calls go, GetAll and anything unlisted never do.
func TestCallAllowed(t *testing.T) {
	cases := []struct {
		name                string
		dest, iface, member string
		args                []any
		want                bool
	}{
		{"cache", ":1.5", "org.a11y.atspi.Cache", "GetItems", nil, true},
		{"children", ":1.5", "org.a11y.atspi.Accessible", "GetChildren", nil, true},
		{"one property", ":1.5", propertiesIface, "Get", []any{"org.a11y.atspi.Accessible", "Name"}, true},
		{"value property", ":1.5", propertiesIface, "Get", []any{"org.a11y.atspi.Value", "MinimumIncrement"}, true},
		{"value set", ":1.5", propertiesIface, "Set", []any{"org.a11y.atspi.Value", "CurrentValue", variantDouble(1)}, true},
		{"bus daemon", busDaemon, busDaemon, "AddMatch", []any{"type='signal'"}, true},
		{"registry event", registryName, "org.a11y.atspi.Registry", "RegisterEvent", []any{"object:", []string{}}, true},

		{"GetAll of Value (aborts browsers)", ":1.5", propertiesIface, "GetAll", []any{"org.a11y.atspi.Value"}, false},
		{"GetAll of Accessible", ":1.5", propertiesIface, "GetAll", []any{"org.a11y.atspi.Accessible"}, false},
		{"an unlisted property", ":1.5", propertiesIface, "Get", []any{"org.a11y.atspi.Value", "Text"}, false},
		{"a Set of a name", ":1.5", propertiesIface, "Set", []any{"org.a11y.atspi.Accessible", "Name", "x"}, false},
		{"Get without its property", ":1.5", propertiesIface, "Get", []any{"org.a11y.atspi.Value"}, false},
		{"Get with a non-string property", ":1.5", propertiesIface, "Get", []any{"org.a11y.atspi.Value", int32(1)}, false},
		{"an unlisted method", ":1.5", "org.a11y.atspi.Component", "GrabHighlight", nil, false},
		{"an unlisted bus daemon method", busDaemon, busDaemon, "RequestName", []any{"x", uint32(0)}, false},
		{"a bus daemon method sent to an app", ":1.5", busDaemon, "AddMatch", []any{"x"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := callAllowed(tc.dest, tc.iface, tc.member, tc.args); got != tc.want {
				t.Fatalf("callAllowed(%s.%s %v) = %v, want %v", tc.iface, tc.member, tc.args, got, tc.want)
			}
		})
	}
}

// TestRefusedCallsAreNeverWritten sends GetAll through both encoding
// points over a pipe and checks that nothing reaches the other end and the
// caller gets errCallRefused.
func TestRefusedCallsAreNeverWritten(t *testing.T) {
	local, remote := net.Pipe()
	defer local.Close()
	defer remote.Close()
	c := &wireConn{conn: local, pending: map[uint32]pendingCall{}, done: make(chan struct{})}
	written := make(chan int, 1)
	go func() {
		buf := make([]byte, 1024)
		n, _ := remote.Read(buf)
		written <- n
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	if _, err := c.call(ctx, ":1.5", "/x", propertiesIface, "GetAll", "org.a11y.atspi.Value"); !errors.Is(err, errCallRefused) {
		t.Fatalf("call of GetAll: %v, want errCallRefused", err)
	}
	if err := c.send(ctx, ":1.5", "/x", propertiesIface, "GetAll", "org.a11y.atspi.Value"); !errors.Is(err, errCallRefused) {
		t.Fatalf("send of GetAll: %v, want errCallRefused", err)
	}
	if len(c.pending) != 0 {
		t.Fatalf("%d calls pending after refusals", len(c.pending))
	}
	// Close the writing end: a reader that got bytes reports them first.
	local.Close()
	if n := <-written; n != 0 {
		t.Fatalf("%d bytes were written for refused calls", n)
	}
}

// sendPoints are the package's functions that put calls on a connection,
// with the positions of the interface and member among their arguments.
// A wrapper that takes iface and member from its caller (liveInfo.call,
// liveInfo.act) is listed too, so its callers are checked.
var sendPoints = map[string]int{
	"act":  2, // liveInfo.act(ctx, declined, iface, member, args...)
	"add":  4, // pipe.add(conn, call, dest, path, iface, member, args...)
	"call": 3, // wireConn.call(ctx, dest, path, iface, member, args...)
	"send": 3, // wireConn.send(ctx, dest, path, iface, member, args...)
}

// TestEverySentCallIsListed reads the package's sources and checks every
// call put on a connection against the written list: a new call to an app
// fails here before it is ever sent. Interface and member must be string
// constants or literals there, so that this check can see them.
func TestEverySentCallIsListed(t *testing.T) {
	fset, files := testkit.GoSources(t, "native/atspi")
	consts := map[string]string{}
	for _, c := range testkit.StringConsts(files) {
		consts[c.Name] = c.Value
	}
	str := func(e ast.Expr) (string, bool) {
		switch v := e.(type) {
		case *ast.BasicLit:
			if v.Kind == token.STRING {
				s, err := strconv.Unquote(v.Value)
				return s, err == nil
			}
		case *ast.Ident:
			s, ok := consts[v.Name]
			return s, ok
		}
		return "", false
	}
	seen := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ce, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ce.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pos, ok := sendPoints[sel.Sel.Name]
			// liveInfo.call(ctx, t, iface, member, args...)
			if sel.Sel.Name == "call" && len(ce.Args) >= 4 {
				if _, isStr := str(ce.Args[1]); !isStr {
					if s, _ := str(ce.Args[2]); strings.HasPrefix(s, "org.") || isParam(ce.Args[2]) {
						pos = 2
					}
				}
			}
			if !ok || len(ce.Args) < pos+2 {
				return true
			}
			where := fset.Position(ce.Pos())
			iface, ok1 := str(ce.Args[pos])
			member, ok2 := str(ce.Args[pos+1])
			if !ok1 || !ok2 {
				// A forwarding wrapper: its own parameters.
				if isParam(ce.Args[pos]) && isParam(ce.Args[pos+1]) {
					return true
				}
				t.Errorf("%s: interface and member of a sent call must be constants", where)
				return true
			}
			var args []any
			for _, a := range ce.Args[pos+2:] {
				if s, ok := str(a); ok {
					args = append(args, s)
				} else {
					args = append(args, nil)
				}
			}
			dest := ":app"
			if iface == busDaemon {
				dest = busDaemon
			}
			seen++
			if !callAllowed(dest, iface, member, args) {
				t.Errorf("%s: %s.%s %v is not on the list of calls to apps (appcalls.go)", where, iface, member, args)
			}
			return true
		})
	}
	// The package sends a few dozen distinct calls; finding none means the
	// scan itself broke.
	if seen < 20 {
		t.Fatalf("found only %d sent calls in the sources; the scan is broken", seen)
	}
}

// isParam reports whether an argument is a plain identifier (a wrapper's
// own parameter, forwarded).
func isParam(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "iface" || id.Name == "member")
}

// TestDocsListTheAppCalls keeps docs/native.md's table of calls to apps in
// step with appCalls.
func TestDocsListTheAppCalls(t *testing.T) {
	doc, err := os.ReadFile(testkit.RepoPath(t, "docs/native.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "## Calls the driver sends to apps")
	if start < 0 {
		t.Fatal(`docs/native.md has no "## Calls the driver sends to apps" section`)
	}
	section := text[start+3:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| `([^`]+)` \\|")
	var documented []string
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1]+" "+m[2])
	}
	var listed []string
	for _, c := range appCalls {
		if c.prop != "" {
			listed = append(listed, c.propIface+" "+c.member+" "+c.prop)
		} else {
			listed = append(listed, c.iface+" "+c.member)
		}
	}
	sort.Strings(documented)
	sort.Strings(listed)
	if strings.Join(documented, "\n") != strings.Join(listed, "\n") {
		t.Fatalf("docs/native.md lists\n%s\n\nappcalls.go lists\n%s", strings.Join(documented, "\n"), strings.Join(listed, "\n"))
	}
}
