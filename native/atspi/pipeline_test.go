package atspi

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

// TestPipeAnswersCarryTheirCalls adds calls of several kinds and targets
// and checks that every answer comes back with the call it answers. The
// calls are refused ones (GetAll), which the batch answers at once
// without writing anything, so no peer is needed.
func TestPipeAnswersCarryTheirCalls(t *testing.T) {
	local, remote := net.Pipe()
	defer local.Close()
	defer remote.Close()
	conn := &wireConn{conn: local, pending: map[uint32]pendingCall{}, done: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p := newPipe(ctx)
	defer p.close()
	want := []call{
		{target: 0, kind: kindExtents},
		{target: 3, kind: kindActionName, sub: 2},
		{target: 3, kind: kindActionName, sub: 0},
		{target: 1, kind: kindText},
		{target: 0, kind: kindChildren},
	}
	for _, c := range want {
		p.add(conn, c, ":1.5", "/x", propertiesIface, "GetAll", "org.a11y.atspi.Value")
	}
	if p.sent != len(want) {
		t.Fatalf("sent %d, want %d", p.sent, len(want))
	}
	p.flush()
	got := map[call]int{}
	for {
		a, ok, err := p.next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if !errors.Is(a.err, errCallRefused) {
			t.Fatalf("answer to %+v: %v, want errCallRefused", a.call, a.err)
		}
		got[a.call]++
	}
	if len(got) != len(want) {
		t.Fatalf("answers %v, want one for each of %v", got, want)
	}
	for _, c := range want {
		if got[c] != 1 {
			t.Fatalf("call %+v answered %d times", c, got[c])
		}
	}
}
