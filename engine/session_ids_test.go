package engine_test

import (
	"slices"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit/enginecall"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
)

// TestSessionIDsAreUniquePerLiveConnection: two connections of one process
// under one client name (two hosts on the daemon, in one process) get two
// session ids: the first the plain mcp:<client>:<pid>, the next a suffix,
// in the session state, the live list and the audit log, also when
// initialize renames a connection after it opened. Ending one leaves the
// other, and a closed connection's id is free again.
func TestSessionIDsAreUniquePerLiveConnection(t *testing.T) {
	h := newHarness(t, nil)
	plain := engine.SessionID("Twin Host", 7000)
	connect := func(name string) enginecall.Caller {
		c := enginekit.Connect(t, h.d, name, 7000)
		return enginecall.Caller{T: t, Conn: c, Check: h.check}
	}
	sessionOf := func(c enginecall.Caller) string {
		t.Helper()
		return c.OK("start_session", map[string]any{"apps": []any{"Form Demo"}})["session"].(string)
	}
	a, b := connect("Twin Host"), connect("Twin Host")
	// c opens under another name and is renamed to the same one, as
	// initialize does after the connection opened.
	c := connect("Early Name")
	c.Conn.SetClient(engine.ClientInfo{Name: "Twin Host", Pid: 7000})
	ids := []string{sessionOf(a), sessionOf(b), sessionOf(c)}
	if want := []string{plain, plain + ":2", plain + ":3"}; !slices.Equal(ids, want) {
		t.Fatalf("session ids %v, want %v", ids, want)
	}
	live := h.d.SessionIDs()
	slices.Sort(live)
	if !slices.Equal(live, ids) {
		t.Fatalf("live sessions %v, want %v", live, ids)
	}
	if started := h.audit.Sessions("session.started"); !slices.Equal(started, ids) {
		t.Fatalf("audit session.started %v, want %v", started, ids)
	}

	// Ending one leaves the others live and acting.
	b.OK("end_session", nil)
	if live := h.d.SessionIDs(); slices.Contains(live, ids[1]) || !slices.Contains(live, ids[0]) || !slices.Contains(live, ids[2]) {
		t.Fatalf("after ending %s the live sessions are %v", ids[1], live)
	}
	for _, x := range []enginecall.Caller{a, c} {
		x.OK("get_window_state", map[string]any{"app": "Form Demo"})
	}
	// A renamed connection that already holds a session keeps its id, and
	// a closed connection's id goes to the next connection.
	a.Conn.Close()
	d := connect("Twin Host")
	if got := sessionOf(d); got != plain {
		t.Fatalf("after the first closed, a new connection got %s, want %s", got, plain)
	}
	c.Conn.SetClient(engine.ClientInfo{Name: "Twin Host", Pid: 7000})
	if got := c.OK("get_session_state", nil)["session"]; got != ids[2] {
		t.Fatalf("a renamed connection's session changed its id to %v", got)
	}
}
