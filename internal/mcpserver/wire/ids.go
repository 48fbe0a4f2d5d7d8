package wire

import (
	"encoding/json"
	"sync"
)

// idTable maps the internal ids the SDK sees to the clients' raw ids. An
// internal id is a number of this connection, never reused; an entry lives
// from the call's line until its reply is written or the client cancels it.
type idTable struct {
	mu      sync.Mutex
	next    int64
	pending map[int64]*call
	byRaw   map[string][]int64
}

// call is one call in flight.
type call struct {
	raw    json.RawMessage
	method string
	group  *batchGroup // nil when the call came alone
	slot   int
}

func newIDTable() *idTable {
	return &idTable{pending: map[int64]*call{}, byRaw: map[string][]int64{}}
}

// add records a call and returns its internal id.
func (t *idTable) add(raw json.RawMessage, method string, group *batchGroup, slot int) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	n := t.next
	t.pending[n] = &call{raw: raw, method: method, group: group, slot: slot}
	t.byRaw[string(raw)] = append(t.byRaw[string(raw)], n)
	return n
}

// take removes and returns the call with internal id n; false when there
// is none (the client cancelled it, or the id was never this layer's).
func (t *idTable) take(n int64) (*call, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c, ok := t.pending[n]
	if ok {
		t.remove(n, c)
	}
	return c, ok
}

// cancel removes every call in flight under the client's id raw, so no
// reply goes out for them, and returns their internal ids and calls.
func (t *idTable) cancel(raw json.RawMessage) ([]int64, []*call) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ns := append([]int64(nil), t.byRaw[string(raw)]...)
	calls := make([]*call, 0, len(ns))
	for _, n := range ns {
		c := t.pending[n]
		t.remove(n, c)
		calls = append(calls, c)
	}
	return ns, calls
}

func (t *idTable) remove(n int64, c *call) {
	delete(t.pending, n)
	key := string(c.raw)
	rest := t.byRaw[key][:0]
	for _, m := range t.byRaw[key] {
		if m != n {
			rest = append(rest, m)
		}
	}
	if len(rest) == 0 {
		delete(t.byRaw, key)
	} else {
		t.byRaw[key] = rest
	}
}

// batchGroup collects the replies of one batch line, which go out together
// as one array once every call of it is answered or cancelled (JSON-RPC
// 2.0). Slots left empty (cancelled calls) are left out of the array.
type batchGroup struct {
	mu        sync.Mutex
	slots     [][]byte
	remaining int
}

// newBatchGroup makes a group of n slots that stays open until release is
// called once, so replies arriving while the line is still being handed
// over cannot complete it early.
func newBatchGroup(n int) *batchGroup {
	return &batchGroup{slots: make([][]byte, n), remaining: n + 1}
}

// fill puts a reply (nil for none) in slot i; it returns the batch's
// reply array once it is complete, else nil.
func (g *batchGroup) fill(i int, reply []byte) []byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.slots[i] = reply
	g.remaining--
	return g.doneLocked()
}

// release ends the hand-over of the line; it returns the reply array when
// every slot is already filled.
func (g *batchGroup) release() []byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.remaining--
	return g.doneLocked()
}

// doneLocked joins the filled slots once nothing is outstanding; an array
// with no replies (only notifications) is not written at all.
func (g *batchGroup) doneLocked() []byte {
	if g.remaining != 0 {
		return nil
	}
	var parts [][]byte
	for _, s := range g.slots {
		if s != nil {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	out := []byte{'['}
	for i, p := range parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	return append(out, ']')
}
