package atspi

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeNode is one element of a fake app without a cache reply (as Qt 5):
// its child count as the app reports it, whether it manages its
// descendants, and how many children it really lists; and its actions:
// the localized names GetActions lists, the names GetName gives, and
// whether GetName fails.
type fakeNode struct {
	count     int32
	manages   bool
	kids      int
	localized []string
	names     []string
	nameFails bool
	// sheet, when its counts are set: the element is a sheet
	// (tables_test.go).
	sheet fakeSheet
	// role, when set, is the role GetRole answers by name (else
	// push_button's number).
	role string
}

// fakeSheet is a fake table of rows by cols cells, 100 x 10 px each, of
// which the first shownRows by shownCols show (its extents hold them
// only); every cell says it shows.
type fakeSheet struct {
	rows, cols           int32
	shownRows, shownCols int32
	// passwordCell, when set, is the path of a cell whose role is
	// password_text.
	passwordCell string
}

// roleNumber is the AT-SPI number of the role named name (as RoleName
// names it), 0 when libatspi knows no such role.
func roleNumber(name string) uint32 {
	loadNames()
	return uint32(max(slices.Index(roleNames, name), 0))
}

// fakeAddress is a cell's address as a sheet names it ("A1", "AB12") from
// its zero-based row and column.
func fakeAddress(row, col int) string {
	letters := ""
	for c := col + 1; c > 0; c = (c - 1) / 26 {
		letters = string(rune('A'+(c-1)%26)) + letters
	}
	return letters + strconv.Itoa(row+1)
}

// fakeApp answers the fill's and the action details' calls for a tree
// whose elements are named by path "/n", "/n/0", "/n/0/1"..., and notes
// which paths were asked for their children, their role and their action
// names.
type fakeApp struct {
	nodes func(path string) fakeNode
	// silent, when set, picks the calls the app never answers, by path
	// and member ("GetAccessibleAt 2 1" for a sheet's cell at row 2,
	// column 1).
	silent func(path, member string) bool
	// fails, when set, picks the calls the app answers with an error.
	fails    func(path, member string) bool
	mu       sync.Mutex
	children map[string]int
	roles    map[string]int
	named    map[string]int // GetName calls by path
}

// fakeClient is a client whose bus is a pipe to app, served until the
// test ends.
func fakeClient(t *testing.T, app *fakeApp) *Client {
	local, remote := net.Pipe()
	t.Cleanup(func() { local.Close() })
	go app.serve(remote)
	conn := &wireConn{conn: local, pending: map[uint32]pendingCall{}, done: make(chan struct{})}
	go conn.readLoop(bufio.NewReader(local))
	cl := New(Options{NoPeerToPeer: true})
	cl.bus = conn
	return cl
}

// serve reads calls from conn and answers each until conn closes.
func (f *fakeApp) serve(conn net.Conn) {
	br := bufio.NewReader(conn)
	var fixed [16]byte
	for {
		if _, err := io.ReadFull(br, fixed[:]); err != nil {
			return
		}
		bodyLen := int(binary.LittleEndian.Uint32(fixed[4:]))
		serial := binary.LittleEndian.Uint32(fixed[8:])
		fieldsLen := int(binary.LittleEndian.Uint32(fixed[12:]))
		rest := make([]byte, (fieldsLen+7)&^7+bodyLen)
		if _, err := io.ReadFull(br, rest); err != nil {
			return
		}
		h := parseFields(rest[:fieldsLen], false)
		body := decoder{b: rest[(fieldsLen+7)&^7:]}
		member := h.member
		if h.iface == propertiesIface {
			body.str()
			member = body.str()
		}
		if member == "GetName" && f.nodes(h.path).nameFails {
			f.count(&f.named, h.path)
			if _, err := conn.Write(appendError(nil, serial+1<<20, serial, "", "org.freedesktop.DBus.Error.Failed", "no name")); err != nil {
				return
			}
			continue
		}
		switch member {
		case "GetName":
			member += strconv.Itoa(int(body.int32()))
		case "GetAccessibleAt", "GetAccessibleAtPoint":
			member += " " + strconv.Itoa(int(body.int32()))
			member += " " + strconv.Itoa(int(body.int32()))
		}
		if f.silent != nil && f.silent(h.path, member) {
			continue
		}
		if f.fails != nil && f.fails(h.path, member) {
			if _, err := conn.Write(appendError(nil, serial+1<<20, serial, "", "org.freedesktop.DBus.Error.Failed", "failed")); err != nil {
				return
			}
			continue
		}
		if _, err := conn.Write(f.answer(serial, h.path, member)); err != nil {
			return
		}
	}
}

// count notes one call about path in the counter m.
func (f *fakeApp) count(m *map[string]int, path string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[path]++
}

// answer encodes the reply to one call; GetName's member carries the
// action's index ("GetName0").
func (f *fakeApp) answer(serial uint32, path, member string) []byte {
	n := f.nodes(path)
	switch {
	case member == "GetChildren":
		f.count(&f.children, path)
	case member == "GetRole":
		f.count(&f.roles, path)
	case strings.HasPrefix(member, "GetName"):
		f.count(&f.named, path)
	}
	var sig string
	b := encoder{}
	if k, ok := strings.CutPrefix(member, "GetName"); ok {
		i, _ := strconv.Atoi(k)
		sig = "s"
		b.str(n.names[i])
	}
	switch member {
	case "GetRole":
		sig = "u"
		if n.role != "" {
			b.uint32(roleNumber(n.role))
		} else {
			b.uint32(31) // push_button
		}
	case "GetState":
		sig = "au"
		states := stateSet(1 << stateShowing)
		if n.manages {
			states |= 1 << stateManagesDescendants
		}
		b.uint32(8)
		b.uint32(uint32(states))
		b.uint32(uint32(states >> 32))
	case "GetInterfaces":
		sig = "as"
		if n.sheet.rows > 0 {
			b.arg([]string{"org.a11y.atspi.Accessible", "org.a11y.atspi.Table"})
		} else {
			b.arg([]string{"org.a11y.atspi.Accessible"})
		}
	case "GetActions":
		sig = "a(sss)"
		structArray(&b, len(n.localized), func(i int) {
			b.str(n.localized[i])
			b.str("")
			b.str("")
		})
	case "Name", "Description":
		sig = "v"
		b.sig("s")
		if row, col, ok := fakeCell(path); ok && member == "Name" {
			b.str(fakeAddress(row, col))
		} else {
			b.str(member + " of " + path)
		}
	case "ChildCount":
		sig = "v"
		b.sig("i")
		b.int32(n.count)
	case "NRows", "NColumns":
		sig = "v"
		b.sig("i")
		b.int32(map[string]int32{"NRows": n.sheet.rows, "NColumns": n.sheet.cols}[member])
	case "GetExtents":
		sig = "(iiii)"
		b.align(8)
		for _, v := range []int32{0, 0, n.sheet.shownCols * 100, n.sheet.shownRows * 10} {
			b.int32(v)
		}
	case "GetChildren":
		sig = "a(so)"
		structArray(&b, n.kids, func(i int) {
			b.str(":1.9")
			b.str(path + "/" + strconv.Itoa(i))
		})
	}
	if at, ok := strings.CutPrefix(member, "GetAccessibleAt"); ok {
		// By row and column, or by point (x then y): a sheet's cell.
		var a, b2 int
		point := strings.HasPrefix(at, "Point")
		fmt.Sscanf(strings.TrimPrefix(at, "Point"), " %d %d", &a, &b2)
		if point {
			a, b2 = b2/10, a/100
		}
		sig = "(so)"
		b.align(8)
		b.str(":1.9")
		b.str(fmt.Sprintf("/cell/%d/%d", a, b2))
	}
	m := encoder{}
	m.buf = append(m.buf, 'l', msgReturn, 0, 1, 0, 0, 0, 0)
	m.buf = binary.LittleEndian.AppendUint32(m.buf, serial+1<<20)
	m.buf = append(m.buf, 0, 0, 0, 0)
	m.align(8)
	m.byte1(fieldReplySerial)
	m.sig("u")
	m.uint32(serial)
	m.align(8)
	m.byte1(fieldSignature)
	m.sig("g")
	m.sig(sig)
	binary.LittleEndian.PutUint32(m.buf[12:], uint32(len(m.buf)-16))
	m.align(8)
	binary.LittleEndian.PutUint32(m.buf[4:], uint32(len(b.buf)))
	return append(m.buf, b.buf...)
}

// structArray encodes an array of n structs, each written by one(i).
func structArray(b *encoder, n int, one func(i int)) {
	b.uint32(0)
	lenAt := len(b.buf) - 4
	b.align(8)
	start := len(b.buf)
	for i := 0; i < n; i++ {
		b.align(8)
		one(i)
	}
	binary.LittleEndian.PutUint32(b.buf[lenAt:], uint32(len(b.buf)-start))
}

// depthOf is how deep a fake path lies ("/n" is 0).
func depthOf(path string) int {
	d := 0
	for _, c := range path[2:] {
		if c == '/' {
			d++
		}
	}
	return d
}

// TestFillFollowUps reads fake apps that give no cache reply, so the fill
// reads everything with follow-up calls: the whole tree comes in one round
// of calls, nothing past the budget is asked for, and a container that
// manages its descendants is never asked for its children while its count
// is over the budget.
func TestFillFollowUps(t *testing.T) {
	binary3 := func(path string) fakeNode { // three children down to depth 4
		if depthOf(path) < 4 {
			return fakeNode{count: 3, kids: 3}
		}
		return fakeNode{}
	}
	huge := func(path string) fakeNode { // a sheet below the root
		switch path {
		case "/n":
			return fakeNode{count: 2, kids: 2}
		case "/n/1":
			return fakeNode{count: 1<<31 - 1, manages: true, kids: 5}
		}
		return fakeNode{}
	}
	cases := []struct {
		name      string
		app       func(string) fakeNode
		budget    Budget
		rows      int  // rows of the read
		truncated bool // the read says it left something out
		maxRounds int
		maxAsked  int    // at most this many elements asked for their role
		kidsDepth int    // no element this deep or deeper asked for its children
		neverKids string // a path never asked for its children
	}{
		{"a whole tree in one round", binary3, Budget{MaxElements: 1000, MaxDepth: 10}, 121, false, 1, 121, 4, ""},
		{"the depth budget", binary3, Budget{MaxElements: 1000, MaxDepth: 2}, 13, true, 1, 13, 2, ""},
		// Follow-ups stop at the budget; the next plan, in pre-order,
		// reads what the tree's first 20 rows still lack (the reader
		// that went level by level asked 37 elements in 9 rounds).
		{"the element budget", binary3, Budget{MaxElements: 20, MaxDepth: 10}, 20, true, 2, 40, 4, ""},
		{"a huge managing container", huge, Budget{MaxElements: 1000, MaxDepth: 10}, 3, true, 1, 3, 2, "/n/1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app := &fakeApp{nodes: c.app}
			cl := fakeClient(t, app)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			r := &reader{c: cl, ctx: ctx, app: ":1.9", known: map[string]*elem{}, budget: c.budget}
			r.root = newElem(":1.9", "/n")
			r.known[r.root.key()] = r.root
			if err := r.fill(); err != nil {
				t.Fatal(err)
			}
			tree, _ := r.assemble()
			if len(tree.Nodes) != c.rows || tree.Truncated != c.truncated || r.rounds > c.maxRounds {
				t.Errorf("%d rows (truncated %v) in %d rounds, want %d (truncated %v) in at most %d", len(tree.Nodes), tree.Truncated, r.rounds, c.rows, c.truncated, c.maxRounds)
			}
			if len(app.roles) > c.maxAsked {
				t.Errorf("%d elements asked for their role, want at most %d", len(app.roles), c.maxAsked)
			}
			for path, n := range app.children {
				if n > 1 {
					t.Errorf("%s asked for its children %d times", path, n)
				}
				if depthOf(path) >= c.kidsDepth {
					t.Errorf("%s (depth %d) asked for its children past the depth budget", path, depthOf(path))
				}
			}
			if c.neverKids != "" && app.children[c.neverKids] > 0 {
				t.Errorf("%s, which manages its descendants and says it holds more than the budget, was asked for its children", c.neverKids)
			}
		})
	}
}
