package engine_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/enginecall"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
)

// What waits in flight cost (docs/decisions.md, Waits): a wait
// on a quiet window reads nothing while it waits, and a session has at
// most engine.MaxWaitsPerSession waits in flight; the next is busy at
// once, and a wait that ends, however it ends, frees its slot.

// pendingWait is a wait_for call running in the background.
type pendingWait struct {
	cancel context.CancelFunc
	done   chan engine.Result
}

// startWait starts a wait_for on conn that runs until its condition is
// met, its timeout passes or it is cancelled.
func startWait(c *engine.Conn, win uint64, cond map[string]any, timeoutMs int) *pendingWait {
	ctx, cancel := context.WithCancel(context.Background())
	args, _ := json.Marshal(map[string]any{"window_id": win, "condition": cond, "timeout_ms": timeoutMs})
	p := &pendingWait{cancel: cancel, done: make(chan engine.Result, 1)}
	go func() { p.done <- c.Call(ctx, "wait_for", args) }()
	return p
}

// metWait is the structured result of a wait that must be met, checked
// as every result is.
func (h *harness) metWait(t *testing.T, r engine.Result) map[string]any {
	t.Helper()
	h.check("wait_for", r)
	if r.Err != nil {
		t.Fatal(r.Text)
	}
	res := testkit.Decode(t, r.Structured)
	if res["met"] != true {
		t.Fatalf("not met after the change: %v", res)
	}
	return res
}

// waitsListening waits until n of the mock's WaitChange calls are in
// flight: n waits have read the window and listen to it.
func (h *harness) waitsListening(t *testing.T, n int) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, strconv.Itoa(n)+" waits listening", func() bool { return h.desk.WaitsListening() == n })
}

// testAnIdleWaitReadsNothing: once a wait has read the window and
// listens, nothing changing means nothing read until its timeout: no call
// into the app, no stamp of the window.
func testAnIdleWaitReadsNothing(t *testing.T, h *harness) {
	h.start(nil)
	h.desk.ResetCalls()
	p := startWait(h.c, uint64(h.demo.Form.Window.ID()), map[string]any{"kind": "appears", "label": "never shown"}, 300)
	h.waitsListening(t, 1)
	calls, stamps := len(h.desk.Calls()), h.desk.Stamps()
	r := <-p.done
	h.check("wait_for", r)
	if res := testkit.Decode(t, r.Structured); r.Err != nil || res["met"] != false {
		t.Fatalf("an idle wait: %s", r.Text)
	}
	if after := h.desk.Calls()[calls:]; len(after) != 0 {
		t.Fatalf("an idle wait called the app while it waited: %v", after)
	}
	if n := h.desk.Stamps() - stamps; n != 0 {
		t.Fatalf("an idle wait stamped the window %d times while it waited", n)
	}
}

// testWaitsInFlightAreBounded fills a session with waits, each on its own
// element appearing, and checks that the next is busy at once (no read of
// the window), names the bound, and leaves another session's waits alone;
// that a wait met, cancelled or timed out frees a slot; and that once all
// end the session waits as before.
func testWaitsInFlightAreBounded(t *testing.T, h *harness) {
	h.start(nil)
	form := h.demo.Form
	win := uint64(form.Window.ID())
	appears := func(i int) map[string]any {
		return map[string]any{"kind": "appears", "role": "list_item", "label": "Bounded " + strconv.Itoa(i)}
	}
	var waits []*pendingWait
	for i := range engine.MaxWaitsPerSession {
		waits = append(waits, startWait(h.c, win, appears(i), 30000))
	}
	defer func() {
		for _, p := range waits {
			p.cancel()
		}
	}()
	h.waitsListening(t, engine.MaxWaitsPerSession)

	tooMany := map[string]any{"window_id": win, "condition": appears(99), "timeout_ms": 0}
	reads := len(h.desk.CallsOf("ReadStructure"))
	e := h.fail(engine.CodeBusy, "wait_for", tooMany)
	if msg := e["message"].(string); !strings.Contains(msg, strconv.Itoa(engine.MaxWaitsPerSession)+" waits are already in flight") {
		t.Fatalf("the refusal does not name the bound: %q", msg)
	}
	if e["disposition"].(map[string]any)["retry"] != "safe" {
		t.Fatalf("busy must be safe to retry: %v", e)
	}
	if n := len(h.desk.CallsOf("ReadStructure")) - reads; n != 0 {
		t.Fatalf("a refused wait read the window %d times", n)
	}

	// Another session waits while this one is full.
	other := enginekit.Connect(t, h.d, "Other Host", 4343)
	oc := enginecall.Caller{T: t, Conn: other, Check: h.check}
	oc.OK("start_session", map[string]any{"apps": []any{"Form Demo"}})
	oc.OK("wait_for", tooMany)

	// A wait met frees its slot.
	form.Items.Add("list_item", "Bounded 0")
	if r := <-waits[0].done; r.Err != nil || testkit.Decode(t, r.Structured)["met"] != true {
		t.Fatalf("the wait for Bounded 0: %s", r.Text)
	}
	h.ok("wait_for", tooMany)
	// One slot: a long wait takes it, and the session is full again.
	waits[0] = startWait(h.c, win, appears(100), 30000)
	h.waitsListening(t, engine.MaxWaitsPerSession)
	h.fail(engine.CodeBusy, "wait_for", tooMany)

	// A wait cancelled frees its slot.
	waits[1].cancel()
	if r := <-waits[1].done; r.Err == nil || r.Err.Code != engine.CodeAppNotResponding {
		t.Fatalf("a cancelled wait: %s", r.Text)
	}
	h.ok("wait_for", tooMany)

	// And one that timed out: a short wait takes the free slot, and
	// once it has ended a wait is let in.
	short := startWait(h.c, win, appears(98), 50)
	if r := <-short.done; r.Err != nil || testkit.Decode(t, r.Structured)["met"] != false {
		t.Fatalf("a short wait: %s", r.Text)
	}
	h.ok("wait_for", tooMany)

	for _, p := range append([]*pendingWait{waits[0]}, waits[2:]...) {
		p.cancel()
		<-p.done
	}
	h.waitsListening(t, 0)
	h.desk.After(30*time.Millisecond, func() { form.Items.Add("list_item", "Bounded 2") })
	if res := h.waitFor(appears(2), 10000); res["met"] != true {
		t.Fatalf("a wait after the others ended: %v", res)
	}
}
