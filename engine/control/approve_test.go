package control

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

var clickReq = engine.ApprovalRequest{Session: "mcp:host:1", Tool: "click", Description: "click in window 7 on element 3"}

// request reads the next approval.request and returns its id.
func (h *harness) request() (string, map[string]any) {
	h.t.Helper()
	m := h.nextObject()
	if m["event"] != "approval.request" {
		h.t.Fatalf("want approval.request, got %v", m)
	}
	id, _ := m["id"].(string)
	if id == "" {
		h.t.Fatalf("approval.request without an id: %v", m)
	}
	return id, m
}

func (h *harness) answer(id string, allow bool) {
	h.t.Helper()
	h.send(fmt.Sprintf(`{"method":"approval.answer","params":{"id":%q,"allow":%v}}`, id, allow))
}

func TestApprovalRequestShape(t *testing.T) {
	h := start(t, Options{})
	res := h.approveAsync(context.Background(), engine.ApprovalRequest{Session: "mcp:host:1", Tool: "type_text",
		Description: "type_text in window 7", Observe: &engine.ObserveSpec{Tree: true}})
	line := h.next()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	id := m["id"].(string)
	want := fmt.Sprintf(`{"event":"approval.request","id":%q,"session":"mcp:host:1","tool":"type_text","description":"type_text in window 7","observe":{"tree":true,"screenshot":false}}`, id)
	if line != want {
		t.Fatalf("request\n got %s\nwant %s", line, want)
	}
	h.answer(id, true)
	if got := h.next(); got != `{"event":"ack","method":"approval.answer","matched":true}` {
		t.Fatalf("answer ack %s", got)
	}
	if err := result(t, res); err != nil {
		t.Fatalf("allowed approval returned %v", err)
	}
}

func TestApprovalWithoutObserveOmitsIt(t *testing.T) {
	h := start(t, Options{})
	h.approveAsync(context.Background(), clickReq)
	_, m := h.request()
	if _, ok := m["observe"]; ok {
		t.Fatalf("observe sent without one: %v", m)
	}
}

func TestApprovalOutcomes(t *testing.T) {
	cases := []struct {
		name    string
		host    func(h *harness, id string, cancel context.CancelFunc)
		allowed bool
		message string // part of the denial message
	}{
		{"allow", func(h *harness, id string, _ context.CancelFunc) { h.answer(id, true) }, true, ""},
		{"deny", func(h *harness, id string, _ context.CancelFunc) { h.answer(id, false) }, false, "declined"},
		{"timeout", func(h *harness, id string, _ context.CancelFunc) {}, false, "did not answer"},
		{"ctx ends", func(h *harness, id string, cancel context.CancelFunc) { cancel() }, false, "call ended"},
		{"pipe closes", func(h *harness, id string, _ context.CancelFunc) { h.hostW.Close() }, false, "closed"},
		{"answer for another id", func(h *harness, id string, _ context.CancelFunc) { h.answer(id+"0", true) }, false, "did not answer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, Options{ApprovalTimeout: 200 * time.Millisecond})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			res := h.approveAsync(ctx, clickReq)
			id, _ := h.request()
			tc.host(h, id, cancel)
			err := result(t, res)
			if tc.allowed {
				if err != nil {
					t.Fatalf("Approve = %v, want nil", err)
				}
				return
			}
			wantDenied(t, err)
			if !strings.Contains(err.(*engine.Error).Message, tc.message) {
				t.Fatalf("message %q does not say %q", err.(*engine.Error).Message, tc.message)
			}
		})
	}
}

func TestLateAnswerDoesNotMatch(t *testing.T) {
	h := start(t, Options{ApprovalTimeout: 50 * time.Millisecond})
	res := h.approveAsync(context.Background(), clickReq)
	id, _ := h.request()
	wantDenied(t, result(t, res))
	h.answer(id, true)
	if got := h.next(); got != `{"event":"ack","method":"approval.answer","matched":false}` {
		t.Fatalf("late answer ack %s", got)
	}
}

func TestSecondAnswerDoesNotMatch(t *testing.T) {
	h := start(t, Options{})
	res := h.approveAsync(context.Background(), clickReq)
	id, _ := h.request()
	h.answer(id, false)
	h.answer(id, true)
	acks := []string{h.next(), h.next()}
	if !strings.Contains(acks[0], `"matched":true`) || !strings.Contains(acks[1], `"matched":false`) {
		t.Fatalf("acks %q", acks)
	}
	wantDenied(t, result(t, res))
}

func TestApproveAfterThePipeClosed(t *testing.T) {
	h := start(t, Options{})
	h.hostW.Close()
	<-h.runErr
	wantDenied(t, h.p.Approve(context.Background(), clickReq))
}

func TestApproveWithEndedContext(t *testing.T) {
	h := start(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	wantDenied(t, h.p.Approve(ctx, clickReq))
}

func TestApproveWhenTheHostDoesNotRead(t *testing.T) {
	bw := blockedWriter{release: make(chan struct{}), entered: make(chan struct{}, 1)}
	defer close(bw.release)
	p := New(strings.NewReader(""), bw, &fakeCmds{}, Options{QueueLen: 1, ApprovalTimeout: time.Hour})
	defer p.Close()
	p.Emit(engine.HostEvent{Event: "a"})
	<-bw.entered                         // a is stuck in Write
	p.Emit(engine.HostEvent{Event: "b"}) // fills the queue
	wantDenied(t, p.Approve(context.Background(), clickReq))
}

func TestConcurrentApprovalsMatchByID(t *testing.T) {
	h := start(t, Options{})
	tools := []string{"click", "type_text", "scroll", "drag", "hotkey", "set_value"}
	results := map[string]<-chan error{}
	for _, tool := range tools {
		results[tool] = h.approveAsync(context.Background(), engine.ApprovalRequest{Session: "s", Tool: tool, Description: tool})
	}
	ids := map[string]string{} // tool → id
	for range tools {
		id, m := h.request()
		ids[m["tool"].(string)] = id
	}
	// Answer in reverse order; allow only every other tool.
	for i := len(tools) - 1; i >= 0; i-- {
		h.answer(ids[tools[i]], i%2 == 0)
	}
	for i, tool := range tools {
		err := result(t, results[tool])
		if i%2 == 0 && err != nil {
			t.Errorf("%s: want allowed, got %v", tool, err)
		}
		if i%2 == 1 {
			wantDenied(t, err)
		}
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("approval ids repeat: %v", ids)
		}
		seen[id] = true
	}
}

func TestManyConcurrentApprovals(t *testing.T) {
	// A race-detector workout: approvals, answers, policy changes and
	// events all at once.
	h := start(t, Options{ApprovalTimeout: 2 * time.Second})
	const n = 40
	results := make([]<-chan error, n)
	for i := range n {
		results[i] = h.approveAsync(context.Background(), clickReq)
		go h.p.Emit(engine.HostEvent{Event: "session.started"})
		go h.p.Policy()
	}
	answered := 0
	for answered < n {
		m := h.nextObject()
		if m["event"] == "approval.request" {
			h.answer(m["id"].(string), true)
			answered++
		}
	}
	for i := range n {
		if err := result(t, results[i]); err != nil {
			t.Fatalf("approval %d: %v", i, err)
		}
	}
}
