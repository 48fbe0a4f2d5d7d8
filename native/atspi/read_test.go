package atspi

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/naivewalk"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// compareWalk checks a read against a live walk: the same elements, in the
// same pre-order, with the same depths, roles (in the read's snake_case)
// and names.
func compareWalk(t *testing.T, tree *Tree, walk []naivewalk.Element) {
	t.Helper()
	if len(tree.Nodes) != len(walk) {
		t.Errorf("the read has %d elements, the live walk %d", len(tree.Nodes), len(walk))
	}
	for i := 0; i < len(tree.Nodes) && i < len(walk); i++ {
		n, w := tree.Nodes[i], walk[i]
		if n.Depth != w.Depth || n.Role != snake(w.Role) || n.Name != w.Name {
			t.Fatalf("element %d differs: read (%d %s %q), live walk (%d %s %q)", i, n.Depth, n.Role, n.Name, w.Depth, w.Role, w.Name)
		}
	}
}

// hasArea reports whether a frame covers any pixel.
func hasArea(r Rect) bool { return r.W > 0 && r.H > 0 }

// checkShape checks the tree's own invariants: pre-order, parents before
// children, indexes and child counts that add up.
func checkShape(t *testing.T, tree *Tree) {
	t.Helper()
	if len(tree.Nodes) == 0 || tree.Nodes[0].Parent != -1 || tree.Nodes[0].Depth != 0 {
		t.Fatal("Nodes[0] must be the frame")
	}
	kids := make([]int, len(tree.Nodes))
	seen := map[ID]bool{}
	for i, n := range tree.Nodes {
		if seen[n.ID] {
			t.Fatalf("element %d repeats id %s", i, n.ID)
		}
		seen[n.ID] = true
		if i == 0 {
			continue
		}
		if n.Parent < 0 || n.Parent >= i {
			t.Fatalf("element %d has parent %d: not pre-order", i, n.Parent)
		}
		if n.Depth != tree.Nodes[n.Parent].Depth+1 {
			t.Fatalf("element %d has depth %d under a parent of depth %d", i, n.Depth, tree.Nodes[n.Parent].Depth)
		}
		if n.IndexInParent != kids[n.Parent] {
			t.Fatalf("element %d has index %d, expected %d", i, n.IndexInParent, kids[n.Parent])
		}
		kids[n.Parent]++
	}
	if !tree.Truncated {
		for i, n := range tree.Nodes {
			if n.ChildCount != kids[i] {
				t.Fatalf("element %d says %d children, the tree holds %d", i, n.ChildCount, kids[i])
			}
		}
	}
}

// noCanary checks that the secret appears nowhere in a read.
func noCanary(t *testing.T, tree *Tree) {
	t.Helper()
	for i, n := range tree.Nodes {
		text := strings.Join(append([]string{n.Name, n.Description, n.Value}, n.Actions...), "\x00")
		if strings.Contains(text, testkit.PasswordCanary) {
			t.Fatalf("element %d carries the password canary", i)
		}
	}
}

func TestReadMatchesLiveWalk(t *testing.T) {
	cases := []struct {
		name  string
		start func(t *testing.T) *fixture
		// naive also compares with the libatspi walk
		naive bool
	}{
		{"synthetic 200 rows (GTK 3)", func(t *testing.T) *fixture { return synthetic200(t) }, true},
		{"gtk3-widget-factory", func(t *testing.T) *fixture {
			f := startApp(t, "", "gtk3-widget-factory")
			t.Cleanup(f.stop)
			return f
		}, false},
		{"gnome-calculator (GTK 4)", func(t *testing.T) *fixture {
			f := startApp(t, "", "gnome-calculator")
			t.Cleanup(f.stop)
			return f
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.start(t)
			// Let the app settle (first frames, lazy widgets) before the
			// two reads are compared: until it has sent no change for a
			// while, or 10 s for an app that never stops (a spinner).
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, _, err := watch(t, f.frame.Bus).Quiet(ctx, 300*time.Millisecond, 10*time.Second); err != nil {
				t.Fatal(err)
			}
			var stats ReadStats
			tree, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{Details: DetailsAll, Stats: &stats})
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			walk := pyWalk(t, f.pid, f.title)
			pyTime := time.Since(t0)
			checkShape(t, tree)
			compareWalk(t, tree, walk)
			if tree.Truncated {
				t.Errorf("a read of %d elements was truncated", len(tree.Nodes))
			}
			noCanary(t, tree)
			t.Logf("%d elements; read %v (cache %v, %d fill rounds/%d calls %v, %d detail calls %v, peer-to-peer %v); pyatspi walk process %v",
				len(tree.Nodes), stats.Total, stats.CacheTime, stats.FillRounds, stats.FillCalls, stats.FillTime,
				stats.DetailCalls, stats.DetailTime, stats.PeerToPeer, pyTime)
			if tc.naive {
				naive, err := naivewalk.Walk(f.pid, f.title)
				if err != nil {
					t.Fatal(err)
				}
				compareWalk(t, tree, naive)
			}
		})
	}
}

func TestSyntheticDetails(t *testing.T) {
	f := synthetic200(t)
	tree, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{Details: DetailsAll})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Node{}
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		if n.Name != "" {
			if _, dup := byName[n.Role+"/"+n.Name]; !dup {
				byName[n.Role+"/"+n.Name] = n
			}
		}
	}
	get := func(key string) *Node {
		n := byName[key]
		if n == nil {
			t.Fatalf("no %s in the read", key)
		}
		return n
	}
	pw := get("password_text/Password")
	if !pw.Secure || pw.HasValue || pw.Value != "" {
		t.Errorf("the password entry: secure %v, value %v", pw.Secure, pw.HasValue)
	}
	if !pw.Editable {
		t.Error("the password entry should say it is editable")
	}
	btn := get("push_button/Click me")
	if !hasString(btn.Actions, "click") {
		t.Errorf("the button's actions are %q, want click", btn.Actions)
	}
	if !hasArea(btn.Frame) || !btn.HasState("showing") {
		t.Errorf("the showing button has frame %+v", btn.Frame)
	}
	spin := get("spin_button/Amount")
	if !spin.HasValue || spin.Numeric == nil || spin.Numeric.Step != 1 {
		t.Errorf("the spin button: value %q numeric %+v", spin.Value, spin.Numeric)
	}
	notes := get("text/Notes")
	if notes.Value != "first line\nsecond line" || !notes.Text || !notes.Editable {
		t.Errorf("the text view: %q text %v editable %v", notes.Value, notes.Text, notes.Editable)
	}
	// The table's cells (a container that manages its descendants) and the
	// File menu's items are there though the cache reply omits them.
	if get("table_cell/plums").Parent != indexOf(tree, get("table/Fruit table")) {
		t.Error("the table cell is not under the table")
	}
	if n := get("menu_item/Quit"); tree.Nodes[n.Parent].Name != "File" {
		t.Error("the Quit item is not under the File menu")
	}
	// Every row's entry and the text view carry their text.
	var texts int
	for _, n := range tree.Nodes {
		if n.Role == "text" && n.HasValue {
			texts++
		}
	}
	if texts != 201 {
		t.Errorf("%d text elements carry their values, want 201", texts)
	}
}

func TestReadStructureThenDetails(t *testing.T) {
	f := synthetic200(t)
	tree, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{Details: DetailsNone})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range tree.Nodes {
		if n.HasValue || len(n.Actions) > 0 || hasArea(n.Frame) {
			t.Fatalf("element %d has details in a structure-only read", i)
		}
	}
	var some []*Node
	for i := range tree.Nodes {
		if tree.Nodes[i].Name == "Click me" || tree.Nodes[i].Name == "Amount" || tree.Nodes[i].Name == "Password" {
			some = append(some, &tree.Nodes[i])
		}
	}
	if len(some) != 3 {
		t.Fatalf("found %d of the 3 elements", len(some))
	}
	if err := client.Details(callCtx(t), some, DetailsAll); err != nil {
		t.Fatal(err)
	}
	for _, n := range some {
		switch n.Name {
		case "Click me":
			if !hasString(n.Actions, "click") || !hasArea(n.Frame) {
				t.Errorf("the button's details: %q %+v", n.Actions, n.Frame)
			}
		case "Amount":
			if !n.HasValue || n.Numeric == nil {
				t.Errorf("the spin button's value is missing")
			}
		case "Password":
			if n.HasValue || !n.Secure {
				t.Errorf("the password entry got a value")
			}
		}
	}
	// DetailLimit reads details of the first nodes only.
	limited, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{Details: DetailsAll, DetailLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range limited.Nodes[10:] {
		if n.HasValue || len(n.Actions) > 0 || hasArea(n.Frame) {
			t.Fatalf("element %d past the detail limit has details", i+10)
		}
	}
	if len(limited.Nodes[3].Actions) == 0 {
		t.Errorf("the File menu (element 3) should have its actions: %+v", limited.Nodes[3])
	}
}

func TestBudgetTruncates(t *testing.T) {
	f := synthetic200(t)
	cases := []struct {
		budget Budget
		maxLen int
		depth  int
	}{
		{Budget{MaxElements: 50, MaxDepth: 200}, 50, 200},
		{Budget{MaxElements: 5000, MaxDepth: 3}, 5000, 3},
	}
	full, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d/%d", tc.budget.MaxElements, tc.budget.MaxDepth), func(t *testing.T) {
			tree, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{Budget: tc.budget})
			if err != nil {
				t.Fatal(err)
			}
			if !tree.Truncated || len(tree.Nodes) > tc.maxLen {
				t.Fatalf("truncated %v with %d nodes", tree.Truncated, len(tree.Nodes))
			}
			checkShape(t, tree)
			// The cut read is the full read's pre-order, minus what the
			// budget leaves out.
			j := 0
			for _, n := range tree.Nodes {
				for j < len(full.Nodes) && full.Nodes[j].ID != n.ID {
					j++
				}
				if j == len(full.Nodes) {
					t.Fatalf("element %s is not in the full read's order", n.ID)
				}
				if n.Depth > tc.depth {
					t.Fatalf("element deeper than the budget")
				}
			}
		})
	}
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func indexOf(tree *Tree, n *Node) int {
	for i := range tree.Nodes {
		if &tree.Nodes[i] == n {
			return i
		}
	}
	return -2
}

// readUntil re-reads the window until cond holds or 10 s have passed, and
// returns the last read (the caller checks what it needs of it).
func readUntil(t *testing.T, frame ID, cond func(*Tree) bool) *Tree {
	t.Helper()
	var tree *Tree
	testkit.Poll(10*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var err error
		if tree, err = client.ReadTree(ctx, frame, ReadOptions{Details: DetailsAll}); err != nil {
			t.Fatal(err)
		}
		return cond(tree)
	})
	return tree
}
