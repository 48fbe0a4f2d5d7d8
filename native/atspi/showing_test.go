package atspi

import "testing"

func TestShowingLearntPerApp(t *testing.T) {
	const (
		showing = stateSet(1 << stateShowing)
		visible = stateSet(1 << stateVisible)
	)
	elems := func(root stateSet, kids ...stateSet) (*elem, map[string]*elem) {
		r := &elem{bus: ":1.5", path: "/root", hasProps: true, states: root}
		m := map[string]*elem{"root": r}
		for i, k := range kids {
			m[string(rune('a'+i))] = &elem{bus: ":1.5", path: "/" + string(rune('a'+i)), hasProps: true, states: k}
		}
		return r, m
	}
	cases := []struct {
		name        string
		root        stateSet
		kids        []stateSet
		wantShowing bool // a visible element of the app counts as showing afterwards
	}{
		{"a window showing, widgets only visible (GTK 4.8)", showing | visible, []stateSet{visible, visible, 0}, true},
		{"a window showing, a widget showing too (GTK 3)", showing | visible, []stateSet{visible, showing | visible}, false},
		{"a window not on screen says nothing", visible, []stateSet{visible}, false},
		{"nothing visible says nothing", showing | visible, []stateSet{0, 0}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := &Client{}
			root, m := elems(c.root, c.kids...)
			cl.learnShowing(":1.5", root, m)
			got := cl.showingFor(":1.5", visible).has(stateShowing)
			if got != c.wantShowing {
				t.Fatalf("a visible element shows as showing: %v, want %v", got, c.wantShowing)
			}
			if cl.showingFor(":1.5", 0).has(stateShowing) {
				t.Fatal("an element that is not visible must never count as showing")
			}
			if cl.showingFor(":1.9", visible).has(stateShowing) {
				t.Fatal("another app is not marked")
			}
		})
	}
	// An app seen to report showing below a window later is unmarked.
	cl := &Client{}
	root, m := elems(showing|visible, visible)
	cl.learnShowing(":1.5", root, m)
	root, m = elems(showing|visible, showing|visible)
	cl.learnShowing(":1.5", root, m)
	if cl.showingFor(":1.5", visible).has(stateShowing) {
		t.Fatal("an app that reports showing is taken at its word")
	}
}
