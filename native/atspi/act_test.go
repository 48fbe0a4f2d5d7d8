package atspi

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// find returns the first node with this role and name.
func find(t *testing.T, tree *Tree, role, name string) Node {
	t.Helper()
	for _, n := range tree.Nodes {
		if n.Role == role && n.Name == name {
			return n
		}
	}
	t.Fatalf("no %s %q in the read", role, name)
	return Node{}
}

// rowEntry returns the entry of row r of the synthetic window.
func rowEntry(t *testing.T, tree *Tree, r string) Node {
	t.Helper()
	for _, n := range tree.Nodes {
		if n.Role == "text" && n.Value == "value "+r {
			return n
		}
	}
	t.Fatalf("no entry for row %s", r)
	return Node{}
}

func ref(n Node) ID { return n.ID }

// wantKind fails unless err is the package's error of this kind.
func wantKind(t *testing.T, err error, kind Kind) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Kind != kind {
		t.Fatalf("got %v, want %s", err, kind)
	}
}

func TestDoActionClicksTheButton(t *testing.T) {
	f := synthetic200(t)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	btn := find(t, tree, "push_button", "Click me")
	before := labelCount(tree)
	if err := client.DoAction(callCtx(t), ref(btn), "click"); err != nil {
		t.Fatal(err)
	}
	after := readUntil(t, f.frame.ID, func(tr *Tree) bool { return labelCount(tr) > before })
	if labelCount(after) != before+1 {
		t.Fatalf("the status label did not count the click")
	}
	wantKind(t, client.DoAction(callCtx(t), ref(btn), "no-such-action"), KindRefused)
}

// labelCount reads the synthetic window's status label ("clicked N").
func labelCount(tree *Tree) int {
	for _, n := range tree.Nodes {
		if n.Role == "label" && (n.Name == "not clicked" || strings.HasPrefix(n.Name, "clicked ")) {
			var k int
			for _, c := range strings.TrimPrefix(n.Name, "clicked ") {
				if c >= '0' && c <= '9' {
					k = k*10 + int(c-'0')
				}
			}
			return k
		}
	}
	return -1
}

func TestTextAndNumberActs(t *testing.T) {
	f := synthetic200(t)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	entry := rowEntry(t, tree, "7")
	spin := find(t, tree, "spin_button", "Amount")
	notes := find(t, tree, "text", "Notes")
	// The window is shared by the package's tests (and by a -count=2
	// rerun): give the entry its text back.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = client.SetText(ctx, ref(entry), "value 7")
	})

	if err := client.SetText(callCtx(t), ref(entry), "héllo"); err != nil {
		t.Fatal(err)
	}
	if rb, err := client.ReadValue(callCtx(t), ref(entry), 1<<10); err != nil || rb.Value != "héllo" || rb.Secure {
		t.Fatalf("after SetText: %+v %v", rb, err)
	}
	// The bound is the caller's, in bytes, cut back to a whole character.
	for _, c := range []struct {
		max       int
		value     string
		truncated bool
	}{{6, "héllo", false}, {5, "héll", true}, {2, "h", true}} {
		if rb, err := client.ReadValue(callCtx(t), ref(entry), c.max); err != nil || rb.Value != c.value || rb.Truncated != c.truncated {
			t.Fatalf("ReadValue with %d bytes: %+v %v, want %q truncated=%v", c.max, rb, err, c.value, c.truncated)
		}
	}
	at, err := client.InsertText(callCtx(t), ref(entry), " wörld")
	if err != nil {
		t.Fatal(err)
	}
	// Where the text went in is where a ranged read finds it.
	if rb, err := client.ReadTextAt(callCtx(t), ref(entry), at, at+len([]rune(" wörld"))); err != nil || rb.Value != " wörld" {
		t.Fatalf("ReadTextAt at the insertion (%d): %+v %v", at, rb, err)
	}
	rb, err := client.ReadValue(callCtx(t), ref(entry), 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	// The caret sits where the person (or SetText) left it: the insertion
	// lands at the caret, so both words are there in some order.
	if !strings.Contains(rb.Value, "héllo") || !strings.Contains(rb.Value, " wörld") || len(rb.Value) != len("héllo wörld") {
		t.Fatalf("after InsertText: %q", rb.Value)
	}
	if err := client.SetNumber(callCtx(t), ref(spin), 42); err != nil {
		t.Fatal(err)
	}
	if rb, err := client.ReadValue(callCtx(t), ref(spin), 1<<10); err != nil || rb.Value != "42" {
		t.Fatalf("after SetNumber: %+v %v", rb, err)
	}
	text, cut, err := client.ReadText(callCtx(t), ref(notes), 0)
	if err != nil || cut || text != "first line\nsecond line" {
		t.Fatalf("ReadText: %q %v %v", text, cut, err)
	}
	text, cut, err = client.ReadText(callCtx(t), ref(notes), 5)
	if err != nil || !cut || text != "first" {
		t.Fatalf("ReadText cut to 5: %q %v %v", text, cut, err)
	}
	// Acts that do not fit the element.
	btn := find(t, tree, "push_button", "Click me")
	wantKind(t, client.SetText(callCtx(t), ref(btn), "x"), KindRefused)
	wantKind(t, client.SetNumber(callCtx(t), ref(btn), 1), KindRefused)
}

func TestSecureFieldIsNeverRead(t *testing.T) {
	f := synthetic200(t)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	pw := find(t, tree, "password_text", "Password")
	rb, err := client.ReadValue(callCtx(t), ref(pw), 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	if !rb.Secure || rb.Value != "" {
		t.Fatalf("ReadValue of the password entry: secure %v, %d bytes", rb.Secure, len(rb.Value))
	}
	_, _, err = client.ReadText(callCtx(t), ref(pw), 0)
	wantKind(t, err, KindSecure)
	wantKind(t, client.SetText(callCtx(t), ref(pw), "x"), KindSecure)
	_, err = client.InsertText(callCtx(t), ref(pw), "x")
	wantKind(t, err, KindSecure)
	rb, err = client.ReadTextAt(callCtx(t), ref(pw), 0, 100)
	if err != nil || !rb.Secure || rb.Value != "" {
		t.Fatalf("ReadTextAt on the password field: %+v %v", rb, err)
	}
	noCanary(t, tree)
	for _, n := range tree.Nodes {
		if n.Secure && n.Role != "password_text" {
			t.Errorf("%s %q is marked secure", n.Role, n.Name)
		}
	}
}
