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
	for a, err := range p.answers() {
		if err != nil {
			t.Fatal(err)
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

// TestPipeAnswersStopAtTheContextsEnd: an app that never answers leaves a
// call outstanding; when the pipe's context ends, answers yields the
// context's error once and stops, instead of waiting on.
func TestPipeAnswersStopAtTheContextsEnd(t *testing.T) {
	local, remote := net.Pipe()
	defer local.Close()
	defer remote.Close()
	go func() { // the silent app: reads every call, answers none
		buf := make([]byte, 4096)
		for {
			if _, err := remote.Read(buf); err != nil {
				return
			}
		}
	}()
	conn := &wireConn{conn: local, pending: map[uint32]pendingCall{}, done: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	p := newPipe(ctx)
	defer p.close()
	p.add(conn, call{kind: kindRole}, ":1.5", "/x", "org.a11y.atspi.Accessible", "GetRole")
	p.flush()
	var errs, answers int
	for _, err := range p.answers() {
		if err != nil {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("the error: %v, want the context's", err)
			}
			errs++
			continue
		}
		answers++
	}
	if errs != 1 || answers != 0 {
		t.Fatalf("%d errors and %d answers, want the context's error once", errs, answers)
	}
}

// TestAWriteToADeadAppIsGone: a call written to an app that died under its
// private socket fails the write (EPIPE, or a closed pipe here); that is
// the app gone, not a failure inside the driver.
func TestAWriteToADeadAppIsGone(t *testing.T) {
	local, remote := net.Pipe()
	defer local.Close()
	remote.Close() // the app died
	conn := &wireConn{conn: local, pending: map[uint32]pendingCall{}, done: make(chan struct{}), peer: true}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := conn.call(ctx, ":1.5", "/x", "org.a11y.atspi.Action", "DoAction", int32(0))
	if err == nil {
		t.Fatal("a call to a closed socket succeeded")
	}
	if e := mapErr(err, conn, ctx, targetAct); e.Kind != KindGone {
		t.Fatalf("a write to a dead app: %v, want %v", e, KindGone)
	}
}
