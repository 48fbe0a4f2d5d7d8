package atspi

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// readActions reads the action names of the fake app's elements at paths
// (push buttons with the Action interface) as a read's details do, and
// returns them by path.
func readActions(t *testing.T, cl *Client, paths []string) map[string][]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	targets := make([]detailTarget, len(paths))
	for i, p := range paths {
		targets[i] = detailTarget{node: &Node{ID: ID(":1.9" + p), Role: "push_button"}, bus: ":1.9", path: p, ifaces: ifAction}
	}
	if _, err := cl.details(ctx, targets, DetailActions); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for i, p := range paths {
		out[p] = targets[i].node.Actions
	}
	return out
}

// TestActionNamesByKind reads the action names of a fake app's buttons:
// one element of each kind (role, interfaces, localized names) is asked
// for its names and the others of the kind take them, in that read and
// in later ones; a kind whose names turned out not to be an element's own
// (an act refused them: forgetActions) is distrusted, and each of its
// elements is asked again; a failed answer leaves the next element of the
// kind to ask for itself.
func TestActionNamesByKind(t *testing.T) {
	click := fakeNode{localized: []string{"Click"}, names: []string{"click"}}
	press := fakeNode{localized: []string{"Click"}, names: []string{"press"}} // the same kind, other names
	toggle := fakeNode{localized: []string{"Toggle", "Click"}, names: []string{"toggle", "click"}}
	nodes := map[string]fakeNode{"/n/0": click, "/n/1": click, "/n/2": press, "/n/3": toggle, "/n/4": toggle, "/n/5": click, "/n/6": press}
	app := &fakeApp{nodes: func(path string) fakeNode { return nodes[path] }}
	cl := fakeClient(t, app)
	asked := func() int {
		app.mu.Lock()
		defer app.mu.Unlock()
		n := 0
		for _, c := range app.named {
			n += c
		}
		return n
	}

	got := readActions(t, cl, []string{"/n/0", "/n/1", "/n/2", "/n/3", "/n/4"})
	// One GetName for the click kind's one action, two for the toggle
	// kind's two: not one per element and action (7).
	if n := asked(); n != 3 {
		t.Errorf("first read: %d GetName calls, want 3 (one element of each kind)", n)
	}
	for p, want := range map[string][]string{"/n/0": {"click"}, "/n/1": {"click"}, "/n/3": {"toggle", "click"}, "/n/4": {"toggle", "click"}} {
		if !slices.Equal(got[p], want) {
			t.Errorf("first read: %s has actions %q, want %q", p, got[p], want)
		}
	}
	// /n/2 took its kind's names, which are not its own: the inference
	// the kinds rest on, broken on purpose here.
	if !slices.Equal(got["/n/2"], []string{"click"}) {
		t.Fatalf("first read: /n/2 has actions %q, want its kind's", got["/n/2"])
	}

	// A new element of a known kind asks nothing.
	if got := readActions(t, cl, []string{"/n/5"}); !slices.Equal(got["/n/5"], []string{"click"}) || asked() != 3 {
		t.Errorf("a known kind: /n/5 has %q after %d GetName calls, want click after 3", got["/n/5"], asked())
	}

	// An act by "click" on /n/2 is refused (DoAction reads the live
	// names) and forgets its names: the kind is distrusted.
	cl.forgetActions(ID(":1.9/n/2"))
	got = readActions(t, cl, []string{"/n/0", "/n/2", "/n/6"})
	if !slices.Equal(got["/n/2"], []string{"press"}) || !slices.Equal(got["/n/6"], []string{"press"}) {
		t.Errorf("after the refusal: /n/2 %q, /n/6 %q, want press for both (each asked)", got["/n/2"], got["/n/6"])
	}
	if !slices.Equal(got["/n/0"], []string{"click"}) {
		t.Errorf("after the refusal: /n/0 %q, want the click it learnt", got["/n/0"])
	}
	if n := asked(); n != 5 {
		t.Errorf("after the refusal: %d GetName calls in all, want 5 (/n/2 and /n/6 asked for their own)", n)
	}

	t.Run("a failed answer passes the asking on", func(t *testing.T) {
		broken := fakeNode{localized: []string{"Click"}, names: []string{"click"}, nameFails: true}
		nodes := map[string]fakeNode{"/n/0": broken, "/n/1": click, "/n/2": click}
		app := &fakeApp{nodes: func(path string) fakeNode { return nodes[path] }}
		got := readActions(t, fakeClient(t, app), []string{"/n/0", "/n/1", "/n/2"})
		if len(got["/n/0"]) != 0 || !slices.Equal(got["/n/1"], []string{"click"}) || !slices.Equal(got["/n/2"], []string{"click"}) {
			t.Errorf("actions %q, want none for /n/0 (its GetName failed) and click for /n/1 and /n/2", got)
		}
		app.mu.Lock()
		defer app.mu.Unlock()
		if app.named["/n/0"] != 1 || app.named["/n/1"] != 1 || app.named["/n/2"] != 0 {
			t.Errorf("GetName calls by path %v, want /n/0 and then /n/1 asked once, /n/2 not", app.named)
		}
	})
}

// TestActionNamesByKindAreTheElementsOwn reads the 200-row synthetic
// window with a client that has learnt nothing (a driver's first read),
// so its elements take their kind's names, and checks every element's
// names against its own, read live as an act reads them (GetActions, then
// GetName for each): GTK names its actions per widget class.
func TestActionNamesByKindAreTheElementsOwn(t *testing.T) {
	f := synthetic200(t)
	fresh := New(Options{})
	defer fresh.Close()
	ctx := callCtx(t)
	tree, err := fresh.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsAll})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	checked := 0
	for _, n := range tree.Nodes {
		if len(n.Actions) == 0 {
			continue
		}
		l, err := fresh.inspect(ctx, n.ID)
		if err != nil {
			t.Fatal(err)
		}
		own, err := fresh.actionNames(ctx, l)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(n.Actions, own) {
			t.Errorf("a %s read with actions %q; its own are %q", n.Role, n.Actions, own)
		}
		kinds[n.Role+"\x00"+strings.Join(own, "\x00")] = true
		checked++
	}
	// The window's buttons, check boxes, entries, combo boxes, menu items
	// and tree view cells: several kinds of many elements each.
	if checked < 500 || len(kinds) < 5 {
		t.Fatalf("%d elements with actions of %d kinds; the window has over 700 of at least 5", checked, len(kinds))
	}
	t.Logf("%d elements with actions, %d kinds", checked, len(kinds))
}
