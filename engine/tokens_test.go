package engine

import "testing"

func TestParseToken(t *testing.T) {
	good := map[string]Token{"s1:1": {"s1", 1}, "s42:5000": {"s42", 5000}}
	for in, want := range good {
		got, err := ParseToken(in)
		if err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
		if got.String() != in {
			t.Errorf("round trip %q -> %q", in, got.String())
		}
	}
	for _, bad := range []string{"", ":", "s1:", ":1", "s1:0", "s1:-3", "s1:01", "x1:2", "s:2", "s1:2:3", "s1:1e3",
		"s1: 2", "s1:99999999999999999999", "s1a:2", "ｓ1:2"} {
		if _, err := ParseToken(bad); err == nil || err.Code != CodeInvalidArguments {
			t.Errorf("%q must be invalid_arguments, got %v", bad, err)
		}
	}
}

func tree(win WindowID, nodes ...Node) *Tree { return &Tree{Window: win, Nodes: nodes} }

func TestRowNumbersAreStableAndNeverReused(t *testing.T) {
	r := newRowRegistry()
	a := tree(7, Node{ID: "a", Parent: -1}, Node{ID: "b", Parent: 0}, Node{ID: "c", Parent: 0})
	first := r.number(a)
	if first[0] != 1 || first[1] != 2 || first[2] != 3 {
		t.Fatalf("first numbers %v", first)
	}
	// b removed, d added: d gets a new number, c keeps its own.
	b := tree(7, Node{ID: "a", Parent: -1}, Node{ID: "c", Parent: 0}, Node{ID: "d", Parent: 0})
	got := r.number(b)
	if got[0] != 1 || got[1] != 3 || got[2] != 4 {
		t.Fatalf("after a change %v", got)
	}
	// b comes back: its old number, never another's.
	c := tree(7, Node{ID: "a", Parent: -1}, Node{ID: "b", Parent: 0})
	if got := r.number(c); got[1] != 2 {
		t.Fatalf("b must keep 2, got %v", got)
	}
	// Another window numbers on its own.
	if got := r.number(tree(8, Node{ID: "z", Parent: -1})); got[0] != 1 {
		t.Fatalf("window 8 starts at 1, got %v", got)
	}
}

func TestStructureIgnoresNamesValuesAndStates(t *testing.T) {
	base := tree(1, Node{ID: "a", Parent: -1, Role: "frame"}, Node{ID: "b", Parent: 0, Role: "entry", Name: "x", Value: "1"})
	same := tree(1, Node{ID: "a", Parent: -1, Role: "frame"}, Node{ID: "b", Parent: 0, Role: "entry", Name: "y", Value: "2", States: []string{"focused"}})
	if structureOf(base) != structureOf(same) {
		t.Error("names, values and states are not structure")
	}
	cases := map[string]*Tree{
		"role":   tree(1, Node{ID: "a", Parent: -1, Role: "frame"}, Node{ID: "b", Parent: 0, Role: "label"}),
		"added":  tree(1, Node{ID: "a", Parent: -1, Role: "frame"}, Node{ID: "b", Parent: 0, Role: "entry"}, Node{ID: "c", Parent: 0, Role: "entry", IndexInParent: 1}),
		"moved":  tree(1, Node{ID: "a", Parent: -1, Role: "frame"}, Node{ID: "b", Parent: 0, Role: "entry", IndexInParent: 1}),
		"new id": tree(1, Node{ID: "a", Parent: -1, Role: "frame"}, Node{ID: "b2", Parent: 0, Role: "entry"}),
	}
	for name, tr := range cases {
		if structureOf(base) == structureOf(tr) {
			t.Errorf("%s must change the structure", name)
		}
	}
}

// A snapshot acts only in the live session that took it: even found in
// another session's store (which unique ids already prevent), it is stale
// there, and it is stale in its own session once that session ended.
func TestATokenIsCheckedAgainstItsSession(t *testing.T) {
	d := New(Options{})
	own, other := d.newSession("own"), d.newSession("other")
	sn := own.keep(&snapshot{window: 7}, changeStamp{})
	tok := Token{Snapshot: sn.id, Index: 1}
	if _, err := own.tokenSnapshot(tok); err != nil {
		t.Fatalf("own session: %v", err)
	}
	other.snaps.byID[sn.id] = sn
	if _, err := other.tokenSnapshot(tok); err == nil || err.Code != CodeStaleElementToken {
		t.Fatalf("another session's snapshot: %v, want stale_element_token", err)
	}
	own.mu.Lock()
	own.ended = true
	own.mu.Unlock()
	if _, err := own.tokenSnapshot(tok); err == nil || err.Code != CodeStaleElementToken {
		t.Fatalf("an ended session's snapshot: %v, want stale_element_token", err)
	}
	if next := other.keep(&snapshot{window: 7}, changeStamp{}); next.id == sn.id {
		t.Fatalf("snapshot id %s issued twice", sn.id)
	}
}

func TestKeyEditsOfKeysAndChords(t *testing.T) {
	cases := []struct {
		name string
		got  keyEdit
		want keyEdit
	}{
		{"a letter", pressEdit("a", false), keyEdit{kind: editInsert, ins: "a"}},
		{"a named symbol", pressEdit("equal", false), keyEdit{kind: editInsert, ins: "="}},
		{"return", pressEdit("Return", false), keyEdit{kind: editInsert, ins: "\n"}},
		{"backspace", pressEdit("BackSpace", false), keyEdit{kind: editBackSpace}},
		{"a key that types nothing", pressEdit("F5", false), keyEdit{}},
		{"shift and a letter", hotkeyEdit([]string{"Shift_L", "a"}), keyEdit{kind: editInsert, ins: "A"}},
		{"shift and a digit", hotkeyEdit([]string{"Shift_R", "2"}), keyEdit{kind: editInsert, ins: "@"}},
		{"control and a letter", hotkeyEdit([]string{"Control_L", "v"}), keyEdit{}},
		{"shift and an arrow selects", hotkeyEdit([]string{"Shift_L", "Left"}), keyEdit{}},
		{"a letter alone as a chord", hotkeyEdit([]string{"b"}), keyEdit{kind: editInsert, ins: "b"}},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
}

func TestTheTypingBufferIsBounded(t *testing.T) {
	var b typingBuffer
	b.focusOn(1, "e")
	for i := 0; i < maxTyped+10; i++ {
		b.commit(b.apply(keyEdit{kind: editInsert, ins: "x"}))
	}
	if len(b.text) != maxTyped || b.caret != maxTyped {
		t.Fatalf("buffer %d characters, caret %d", len(b.text), b.caret)
	}
	b.focusOn(1, "f")
	if len(b.text) != 0 || b.caret != 0 {
		t.Fatal("focus on another element starts the buffer afresh")
	}
}
