package mock

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// testCtx is a context bounded well beyond anything a test waits for.
func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// formDemo is the demo desktop (closed when the test ends), its form, the
// form's window and the test's context.
func formDemo(t *testing.T) (*Desktop, *Form, engine.WindowID, context.Context) {
	t.Helper()
	d := NewDemo()
	t.Cleanup(d.Close)
	f := d.Demo().Form
	return d, f, f.Window.ID(), testCtx(t)
}

// wantCode fails the test unless err carries the code ("" for no error).
func wantCode(t *testing.T, what string, err error, want engine.Code) {
	t.Helper()
	if got := codeOf(err); got != want {
		t.Fatalf("%s: code %q, want %q (err %v)", what, got, want, err)
	}
}

// read reads a window's whole tree or fails the test.
func read(t *testing.T, d *Desktop, w *Window) *engine.Tree {
	t.Helper()
	tr, err := d.ReadTree(testCtx(t), w.ID(), engine.DefaultZoomBudget())
	if err != nil {
		t.Fatalf("ReadTree: %v", err)
	}
	return tr
}

// nodeOf finds an element's node in a tree.
func nodeOf(t *testing.T, tr *engine.Tree, e *Element) engine.Node {
	t.Helper()
	for _, n := range tr.Nodes {
		if n.ID == e.ID() {
			return n
		}
	}
	t.Fatalf("element %s not in the tree", e.ID())
	return engine.Node{}
}

// smallWindow builds a window with a known shape:
//
//	frame "Small"
//	  panel "A"
//	    push_button "A1"
//	    label "A2"
//	  panel "B"
//	    panel "B1"
//	      entry "B1a"
//	  label "C"
func smallWindow(d *Desktop) (*App, *Window) {
	app := d.AddApp("Small", "/usr/bin/small")
	w := app.AddWindow("Small", engine.Rect{X: 100, Y: 50, W: 400, H: 300})
	a := w.Root().Add("panel", "A")
	a.Add("push_button", "A1")
	a.Add("label", "A2")
	b := w.Root().Add("panel", "B")
	b.Add("panel", "B1").Add("entry", "B1a").SetValue("hello")
	w.Root().Add("label", "C")
	return app, w
}
