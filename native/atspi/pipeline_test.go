package atspi

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
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
	var heard atomic.Int32
	p := newPipe(WithAnswerHook(ctx, func() { heard.Add(1) }))
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
	// The caller that bounds a read by the app's silence hears of every
	// reply.
	if n := heard.Load(); n != int32(len(want)) {
		t.Fatalf("the answer hook heard %d replies of %d", n, len(want))
	}
}

// TestADialEndsWithItsContext: a peer that takes the connection and never
// answers the handshake holds a dial only until the caller's context
// ends, even one with a far deadline (a caller bounded by the app's
// silence cancels it well before).
func TestADialEndsWithItsContext(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "peer")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	accepted := testkit.SilentServer(t, ln)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	go func() {
		<-accepted
		cancel()
	}()
	testkit.Returns(t, time.Minute, "a dial to a silent peer whose context was cancelled", func() {
		if _, err := dialWire(ctx, "unix:path="+sock, true, nil); err == nil {
			t.Error("a dial to a peer that never answered succeeded")
		}
	})
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
