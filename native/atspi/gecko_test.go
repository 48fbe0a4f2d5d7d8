package atspi

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// fixturePage is the browsers' fixture page's title, the prefix of the
// window's title.
const fixturePage = "Form Fixture"

// startFirefox starts Firefox on the browsers' fixture page
// (testdata/web/form.html) and waits until the page's last element is in
// its tree and its window is on the bus; it is stopped when t ends.
func startFirefox(t testing.TB) *fixture {
	t.Helper()
	page := testkit.Fixture(t, "web/form.html")
	cmd, err := desk.BrowserCommand(sandbox.Firefox, "file://"+page)
	if err != nil {
		t.Fatal(err)
	}
	if err := desk.Start(cmd); err != nil {
		t.Fatal(err)
	}
	f := &fixture{cmd: cmd, pid: cmd.Process.Pid, title: fixturePage}
	t.Cleanup(f.stop)
	ctx := context.Background()
	app, err := desk.WaitForAppPid(ctx, f.pid, 45*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := desk.WaitForElement(ctx, app, sandbox.RolePushButton, "Far button", 45*time.Second); err != nil {
		t.Fatal(err)
	}
	f.frame = waitFrame(t, client, f.pid, fixturePage)
	return f
}

// TestFirefoxActionListsAreAskedOnce: Firefox gives every page element the
// Action interface and most list none (actionlists.go). Once a read has
// seen the page's elements list actions, the next read learns which list
// none, and the reads after it ask no element whose actions an earlier
// read learnt, none included: they make fewer calls than there are
// elements with the interface (every read used to ask each twice). What
// such a read reports is what the app says when asked now, element by
// element.
func TestFirefoxActionListsAreAskedOnce(t *testing.T) {
	f := startFirefox(t)
	read := func() *Tree {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		tree, err := client.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsAll})
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
	ctx := callCtx(t)
	bus, _, _, err := client.parseID(ctx, f.frame.ID, targetFrame)
	if err != nil {
		t.Fatal(err)
	}
	type target struct {
		bus, path string
		node      *Node
	}
	offeringIn := func(tree *Tree) []target {
		var out []target
		for i := range tree.Nodes {
			n := &tree.Nodes[i]
			if ifs, _ := client.recallIfaces(n.ID); ifs&ifAction == 0 {
				continue
			}
			b, path, _, err := client.parseID(ctx, n.ID, targetElement)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, target{b, path, n})
		}
		return out
	}
	// The first read asks first; the switch flips during it or the next,
	// which sees the page's actions and learns the nones (or leaves them
	// to the read after). So by the fourth read the lists are learnt, on
	// a loaded machine too.
	const reads = 6
	var tree *Tree
	var offering []target
	calls := make([]int, 0, reads)
	for len(calls) < reads {
		count, stop := client.CountCalls(bus)
		tree = read()
		calls = append(calls, count())
		stop()
		offering = offeringIn(tree)
		if calls[len(calls)-1] < len(offering) {
			break
		}
	}
	if len(offering) < len(tree.Nodes)/2 {
		t.Fatalf("%d of %d elements offer the Action interface; the fixture page's Firefox gives it to nearly all", len(offering), len(tree.Nodes))
	}
	if last := calls[len(calls)-1]; last >= len(offering) {
		t.Fatalf("reads made %v calls for %d elements offering actions: each asked again what earlier reads learnt", calls, len(offering))
	}

	// Each element's actions as the app gives them now, asked live.
	w, err := client.connFor(ctx, bus)
	if err != nil {
		t.Fatal(err)
	}
	p := newPipe(ctx)
	defer p.close()
	for i, o := range offering {
		p.add(w, call{target: i, kind: kindActions}, o.bus, o.path, "org.a11y.atspi.Action", "GetActions")
	}
	p.flush()
	withActions := 0
	for a, err := range p.answers() {
		if err != nil {
			t.Fatal(err)
		}
		if a.err != nil {
			t.Fatalf("GetActions: %v", a.err)
		}
		live := decodeActionNames(a.decoder())
		n := offering[a.target].node
		if len(live) != len(n.Actions) {
			t.Errorf("a %s lists %d actions live, the read %v", n.Role, len(live), n.Actions)
		}
		if len(live) > 0 {
			withActions++
		}
	}
	if withActions == 0 {
		t.Fatal("no element lists an action: the page's buttons and links have theirs")
	}

	// An element learnt to have none is asked again once the client
	// forgets it (what an act does before refusing: ReadActions).
	var cell *Node
	for _, o := range offering {
		if o.node.Role == "table_cell" && len(o.node.Actions) == 0 {
			cell = o.node
			break
		}
	}
	if cell == nil {
		t.Fatal("no table cell without actions in the read")
	}
	detailCalls := func() int {
		n := *cell
		n.Actions = nil
		count, stop := client.CountCalls(bus)
		defer stop()
		if err := client.Details(ctx, []*Node{&n}, DetailActions); err != nil {
			t.Fatal(err)
		}
		return count()
	}
	if n := detailCalls(); n != 0 {
		t.Fatalf("reading the actions of a cell learnt to have none made %d calls", n)
	}
	client.ForgetActions(cell.ID)
	if n := detailCalls(); n == 0 {
		t.Fatal("after ForgetActions the cell's actions were not asked again")
	}
	t.Logf("%d elements, %d offer actions, %d list some; reads made %v calls", len(tree.Nodes), len(offering), withActions, calls)
}
