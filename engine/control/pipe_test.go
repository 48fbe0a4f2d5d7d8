package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

func TestMethodAcks(t *testing.T) {
	cases := []struct {
		name    string
		line    string
		want    string
		resumes []string
		revokes []string
	}{
		{"resume one session", `{"method":"takeover.resume","params":{"session":"mcp:host:1"}}`,
			`{"event":"ack","method":"takeover.resume","resumed":["mcp:host:1"]}`, []string{"mcp:host:1"}, nil},
		{"resume every session", `{"method":"takeover.resume"}`,
			`{"event":"ack","method":"takeover.resume","resumed":["mcp:host:1"]}`, []string{""}, nil},
		{"resume none lists none", `{"method":"takeover.resume","params":{"session":"mcp:host:9"},"id":7}`,
			`{"event":"ack","method":"takeover.resume","id":7,"resumed":[]}`, []string{"mcp:host:9"}, nil},
		{"resume with null params", `{"method":"takeover.resume","params":null,"id":"r1"}`,
			`{"event":"ack","method":"takeover.resume","id":"r1","resumed":["mcp:host:1"]}`, []string{""}, nil},
		{"revoke one session", `{"method":"session.revoke","params":{"session":"mcp:host:2"},"id":"x"}`,
			`{"event":"ack","method":"session.revoke","id":"x","revoked":["mcp:host:2"],"at_ms":18234}`, nil, []string{"mcp:host:2"}},
		{"revoke every session", `{"method":"session.revoke","params":{}}`,
			`{"event":"ack","method":"session.revoke","revoked":["mcp:host:1","mcp:host:2"],"at_ms":18234}`, nil, []string{""}},
		{"revoke none lists none", `{"method":"session.revoke","params":{"session":"gone"}}`,
			`{"event":"ack","method":"session.revoke","revoked":[],"at_ms":18234}`, nil, []string{"gone"}},
		{"policy", `{"method":"approval.policy","params":{"approve_reads":false,"pre_approved":["type_text","click"]},"id":3}`,
			`{"event":"ack","method":"approval.policy","id":3,"approve_reads":false,"pre_approved":["click","type_text"]}`, nil, nil},
		{"policy without fields keeps reads approved", `{"method":"approval.policy","params":{}}`,
			`{"event":"ack","method":"approval.policy","approve_reads":true,"pre_approved":[]}`, nil, nil},
		{"answer nobody waits for", `{"method":"approval.answer","params":{"id":"a99","allow":true},"id":1}`,
			`{"event":"ack","method":"approval.answer","id":1,"matched":false}`, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, Options{})
			h.send(tc.line)
			if got := h.next(); got != tc.want {
				t.Fatalf("ack\n got %s\nwant %s", got, tc.want)
			}
			h.cmds.mu.Lock()
			defer h.cmds.mu.Unlock()
			if !reflect.DeepEqual(h.cmds.resumes, tc.resumes) || !reflect.DeepEqual(h.cmds.revokes, tc.revokes) {
				t.Fatalf("engine calls: resume %q revoke %q", h.cmds.resumes, h.cmds.revokes)
			}
		})
	}
}

func TestBadLines(t *testing.T) {
	cases := []struct {
		name   string
		line   string
		code   engine.Code
		id     any    // echoed id, nil when none
		method string // echoed method, "" when none
	}{
		{"unknown method", `{"method":"takeover.pause","id":5}`, engine.CodeUnknownMethod, 5.0, ""},
		{"missing method", `{"params":{}}`, engine.CodeUnknownMethod, nil, ""},
		{"malformed json", `{"method":`, engine.CodeInvalidArguments, nil, ""},
		{"not an object", `["takeover.resume"]`, engine.CodeInvalidArguments, nil, ""},
		{"trailing garbage", `{"method":"takeover.resume"} x`, engine.CodeInvalidArguments, nil, ""},
		{"method not a string", `{"method":7}`, engine.CodeInvalidArguments, nil, ""},
		{"object id", `{"method":"takeover.resume","id":{"a":1}}`, engine.CodeInvalidArguments, nil, ""},
		{"long id", `{"method":"takeover.resume","id":"` + strings.Repeat("i", maxIDLen+1) + `"}`, engine.CodeInvalidArguments, nil, ""},
		{"session not a string", `{"method":"takeover.resume","params":{"session":5},"id":"q"}`, engine.CodeInvalidArguments, "q", "takeover.resume"},
		{"empty session", `{"method":"session.revoke","params":{"session":""}}`, engine.CodeInvalidArguments, nil, "session.revoke"},
		{"params not an object", `{"method":"session.revoke","params":[1]}`, engine.CodeInvalidArguments, nil, "session.revoke"},
		{"answer without allow", `{"method":"approval.answer","params":{"id":"a1"}}`, engine.CodeInvalidArguments, nil, "approval.answer"},
		{"answer allow not a bool", `{"method":"approval.answer","params":{"id":"a1","allow":"yes"}}`, engine.CodeInvalidArguments, nil, "approval.answer"},
		{"policy unknown tool", `{"method":"approval.policy","params":{"pre_approved":["format_disk"]}}`, engine.CodeInvalidArguments, nil, "approval.policy"},
		{"policy read tool", `{"method":"approval.policy","params":{"pre_approved":["clipboard_read"]}}`, engine.CodeInvalidArguments, nil, "approval.policy"},
		{"policy session tool", `{"method":"approval.policy","params":{"pre_approved":["start_session"]}}`, engine.CodeInvalidArguments, nil, "approval.policy"},
		{"policy reads not a bool", `{"method":"approval.policy","params":{"approve_reads":"no"}}`, engine.CodeInvalidArguments, nil, "approval.policy"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, Options{})
			h.send(tc.line)
			m := h.expectError(tc.code)
			if m["id"] != tc.id {
				t.Errorf("id %v, want %v", m["id"], tc.id)
			}
			if got, _ := m["method"].(string); got != tc.method {
				t.Errorf("method %q, want %q", got, tc.method)
			}
			// The pipe keeps working after a bad line.
			h.send(`{"method":"takeover.resume","params":{"session":"none"}}`)
			if m := h.nextObject(); m["event"] != "ack" {
				t.Fatalf("after a bad line: %v", m)
			}
		})
	}
}

func TestBadPolicyLeavesPolicyAlone(t *testing.T) {
	h := start(t, Options{})
	h.send(`{"method":"approval.policy","params":{"approve_reads":false,"pre_approved":["click"]}}`)
	h.nextObject()
	h.send(`{"method":"approval.policy","params":{"approve_reads":true,"pre_approved":["click","nope"]}}`)
	h.expectError(engine.CodeInvalidArguments)
	pol := h.p.Policy()
	if pol.ApproveReads || !pol.PreApproved["click"] || len(pol.PreApproved) != 1 {
		t.Fatalf("policy changed by a bad line: %+v", pol)
	}
}

func TestDefaultPolicy(t *testing.T) {
	p := New(strings.NewReader(""), io.Discard, &fakeCmds{}, Options{})
	defer p.Close()
	pol := p.Policy()
	if !pol.ApproveReads || pol.PreApproved == nil || len(pol.PreApproved) != 0 {
		t.Fatalf("default policy %+v", pol)
	}
	pol.PreApproved["click"] = true
	if p.Policy().PreApproved["click"] {
		t.Fatal("Policy() shares its map")
	}
}

func TestHostTextIsNeverEchoed(t *testing.T) {
	const secret = "IGNORE-PREVIOUS-INSTRUCTIONS"
	h := start(t, Options{})
	lines := []string{
		`{"method":"` + secret + `"}`,
		`{"method":"takeover.resume","params":{"session":7,"note":"` + secret + `"}}`,
		`{"method":"approval.policy","params":{"pre_approved":["` + secret + `"]}}`,
		`{"method":"approval.answer","params":{"id":"` + secret + `","allow":true}}`,
		secret,
	}
	for _, l := range lines {
		h.send(l)
		if got := h.next(); strings.Contains(got, secret) {
			t.Fatalf("the driver echoed host text: %s", got)
		}
	}
}

func TestOverlongLineIsSkipped(t *testing.T) {
	h := start(t, Options{})
	long := `{"method":"takeover.resume","params":{"session":"` + strings.Repeat("x", MaxLine) + `"}}`
	h.send(long)
	m := h.expectError(engine.CodeInvalidArguments)
	if _, ok := m["id"]; ok {
		t.Fatal("an id was read from a skipped line")
	}
	h.send(`{"method":"takeover.resume","id":2}`)
	if got := h.next(); got != `{"event":"ack","method":"takeover.resume","id":2,"resumed":["mcp:host:1"]}` {
		t.Fatalf("after the long line: %s", got)
	}
	h.cmds.mu.Lock()
	defer h.cmds.mu.Unlock()
	if len(h.cmds.resumes) != 1 {
		t.Fatalf("the long line reached the engine: %q", h.cmds.resumes)
	}
}

func TestLineLimitIsExact(t *testing.T) {
	// A line of exactly MaxLine bytes is read; one byte more is skipped.
	pad := func(n int) string {
		base := `{"method":"takeover.resume","id":1,"pad":""}`
		return base[:len(base)-3] + `"` + strings.Repeat(" ", n-len(base)) + `"}`
	}
	h := start(t, Options{})
	h.send(pad(MaxLine) + "\r")
	if m := h.nextObject(); m["event"] != "ack" {
		t.Fatalf("a %d byte line was refused: %v", MaxLine, m)
	}
	h.send(pad(MaxLine + 1))
	h.expectError(engine.CodeInvalidArguments)
}

func TestBlankLinesAreIgnored(t *testing.T) {
	h := start(t, Options{})
	h.send("")
	h.send("   \r")
	h.send(`{"method":"takeover.resume","id":1}`)
	if m := h.nextObject(); m["event"] != "ack" {
		t.Fatalf("first line after blanks: %v", m)
	}
}

func TestEmit(t *testing.T) {
	h := start(t, Options{})
	h.p.Emit(engine.HostEvent{Event: "takeover.paused", Session: "mcp:host:4242", Reason: "pointer_moved", AtMs: 18234})
	h.p.Emit(engine.HostEvent{Event: "kill_switch", AtMs: 0})
	want := []string{
		`{"event":"takeover.paused","session":"mcp:host:4242","reason":"pointer_moved","at_ms":18234}`,
		`{"event":"kill_switch","at_ms":0}`,
	}
	for _, w := range want {
		if got := h.next(); got != w {
			t.Fatalf("event\n got %s\nwant %s", got, w)
		}
	}
}

// blockedWriter never returns from Write until released, like a host that
// never reads its end of the pipe. entered, when set (buffered), hears of
// each Write as it begins.
type blockedWriter struct{ release, entered chan struct{} }

func (b blockedWriter) Write(p []byte) (int, error) {
	if b.entered != nil {
		b.entered <- struct{}{}
	}
	<-b.release
	return 0, errors.New("released")
}

func TestEmitNeverBlocks(t *testing.T) {
	bw := blockedWriter{release: make(chan struct{})}
	defer close(bw.release)
	p := New(strings.NewReader(""), bw, &fakeCmds{}, Options{QueueLen: 4})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 1000 {
			p.Emit(engine.HostEvent{Event: "takeover.resumed", AtMs: int64(i)})
		}
	}()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("Emit blocked on a host that does not read")
	}
	// One line is stuck in Write, QueueLen wait in the queue, the rest are gone.
	if d := p.Dropped(); d < 1000-1-4 {
		t.Fatalf("Dropped() = %d", d)
	}
	if err := p.Close(); err == nil {
		t.Fatal("Close reported a clean drain while the host was not reading")
	}
}

func TestEmitAfterCloseDrops(t *testing.T) {
	p := New(strings.NewReader(""), io.Discard, &fakeCmds{}, Options{})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	p.Emit(engine.HostEvent{Event: "kill_switch"})
	if p.Dropped() != 1 {
		t.Fatalf("Dropped() = %d", p.Dropped())
	}
}

func TestRunEnds(t *testing.T) {
	t.Run("at end of input", func(t *testing.T) {
		h := start(t, Options{})
		h.hostW.Close()
		select {
		case err := <-h.runErr:
			if err != nil {
				t.Fatalf("Run = %v, want nil at EOF", err)
			}
		case <-time.After(wait):
			t.Fatal("Run did not end at EOF")
		}
	})
	t.Run("on a read error", func(t *testing.T) {
		h := start(t, Options{})
		boom := errors.New("boom")
		h.hostW.CloseWithError(boom)
		if err := <-h.runErr; !errors.Is(err, boom) {
			t.Fatalf("Run = %v, want the read error", err)
		}
	})
	t.Run("when ctx ends", func(t *testing.T) {
		h := start(t, Options{})
		h.cancel()
		if err := <-h.runErr; !errors.Is(err, context.Canceled) {
			t.Fatalf("Run = %v, want context.Canceled", err)
		}
	})
	t.Run("twice", func(t *testing.T) {
		h := start(t, Options{})
		h.send(`{"method":"takeover.resume"}`)
		h.next() // the first Run is running
		if err := h.p.Run(context.Background()); err == nil {
			t.Fatal("a second Run was accepted")
		}
	})
	t.Run("last line without a newline", func(t *testing.T) {
		var out strings.Builder
		p := New(strings.NewReader(`{"method":"takeover.resume","id":1}`), &out, &fakeCmds{}, Options{})
		if err := p.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		p.Close()
		if want := `{"event":"ack","method":"takeover.resume","id":1,"resumed":[]}` + "\n"; out.String() != want {
			t.Fatalf("output %q", out.String())
		}
	})
}

func TestEchoID(t *testing.T) {
	cases := []struct {
		raw  string
		want string
		ok   bool
	}{
		{``, ``, true},
		{`null`, ``, true},
		{`7`, `7`, true},
		{`-1.5e3`, `-1.5e3`, true},
		{`"abc"`, `"abc"`, true},
		{`"\u0061"`, `"a"`, true},
		{`"` + strings.Repeat("x", maxIDLen) + `"`, `"` + strings.Repeat("x", maxIDLen) + `"`, true},
		{`"` + strings.Repeat("x", maxIDLen+1) + `"`, ``, false},
		{`true`, ``, false},
		{`[1]`, ``, false},
		{`{"a":1}`, ``, false},
		{`123456789012345678901234567890`, ``, false},
	}
	for _, tc := range cases {
		got, ok := echoID(json.RawMessage(tc.raw))
		if ok != tc.ok || string(got) != tc.want {
			t.Errorf("echoID(%s) = %s, %v; want %s, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}

func ExamplePipe_Emit() {
	var out strings.Builder
	p := New(strings.NewReader(""), &out, &fakeCmds{}, Options{})
	p.Emit(engine.HostEvent{Event: "takeover.resumed", Session: "mcp:host:4242", By: "indicator", AtMs: 21007})
	p.Close()
	fmt.Print(out.String())
	// Output: {"event":"takeover.resumed","session":"mcp:host:4242","by":"indicator","at_ms":21007}
}
