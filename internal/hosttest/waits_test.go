package hosttest

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
)

// TestWaitsInFlightAreBoundedPerSession: a host that keeps more than
// engine.MaxWaitsPerSession wait_for calls in flight in one session gets
// busy (retry safe) at once for the next, on either transport; another
// host's session is not counted against it; a wait that is met frees its
// slot, and so do waits the host cancels (notifications/cancelled reaches
// the wait, or the session would stay full for good).
func TestWaitsInFlightAreBoundedPerSession(t *testing.T) {
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		form := h.desk.Demo().Form
		win := uint64(form.Window.ID())
		args := func(label string, timeoutMs int) map[string]any {
			return map[string]any{"window_id": win, "timeout_ms": timeoutMs,
				"condition": map[string]any{"kind": "appears", "role": "list_item", "label": label}}
		}
		cs, _ := h.started(t, "Wait Host", map[string]any{"apps": []string{"Form Demo"}})

		waits := startWaits(cs, "Bounded ", args)
		defer stopWaits(waits)
		waitsListening(t, h.desk, engine.MaxWaitsPerSession)

		tooMany := args("Bounded 99", 0)
		e := mcpkit.Failure(t, "a wait past the bound", mcpkit.Call(t, cs, "wait_for", tooMany))
		if e.Code != string(engine.CodeBusy) || e.Disposition.Retry != "safe" ||
			!strings.Contains(e.Message, strconv.Itoa(engine.MaxWaitsPerSession)+" waits are already in flight in this session") {
			t.Fatalf("a wait past the bound: %+v", e)
		}

		other, _ := h.started(t, "Other Host", map[string]any{"apps": []string{"Form Demo"}})
		if res := mcpkit.Call(t, other, "wait_for", tooMany); res.IsError {
			t.Fatalf("another session's wait: %s", mcpkit.Structured(t, res))
		}

		form.Items.Add("list_item", "Bounded 0")
		if res := <-waits[0].done; res == nil || res.IsError || !strings.Contains(string(mcpkit.Structured(t, res)), `"met":true`) {
			t.Fatalf("the wait for Bounded 0 was not met")
		}
		if res := mcpkit.Call(t, cs, "wait_for", tooMany); res.IsError {
			t.Fatalf("a wait once one was met: %s", mcpkit.Structured(t, res))
		}

		cancelWaits(waits[1:])
		waitsListening(t, h.desk, 0)
		// The host's cancellations end the waits in the driver and free
		// their slots: a full session's worth of waits gets in again
		// (each retrying busy, as a host may, until its slot is free).
		again := startWaits(cs, "Again ", args)
		defer stopWaits(again)
		waitsListening(t, h.desk, engine.MaxWaitsPerSession)
	})
}

// TestWaitForTellsNothingARedactedReadHides is the adversary's oracle: the
// demo editor's document holds an AWS key that reads show as [redacted];
// a wait_for guessing the key's text must never be met, on either
// transport.
func TestWaitForTellsNothingARedactedReadHides(t *testing.T) {
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		cs, _ := h.started(t, "Oracle Host", map[string]any{"apps": []string{"Editor"}})
		met := func(text string) bool {
			res := mcpkit.Call(t, cs, "wait_for", map[string]any{"app": "Editor", "timeout_ms": 0,
				"condition": map[string]any{"kind": "text", "role": "document_text", "text": text}})
			if res.IsError {
				t.Fatalf("wait_for: %s", mcpkit.Structured(t, res))
			}
			var out struct {
				Met bool `json:"met"`
			}
			if err := json.Unmarshal(mcpkit.Structured(t, res), &out); err != nil {
				t.Fatal(err)
			}
			return out.Met
		}
		if !met("api_key=[redacted]") {
			t.Fatal("what a read shows is not matched")
		}
		for _, guess := range []string{"api_key=akiaiosfodnn7example", "api_key=akiaiosfodnn7examplf", "api_key=a", "akiaiosf"} {
			if met(guess) {
				t.Errorf("wait_for met on %q, which reads show as [redacted]", guess)
			}
		}
	})
}

// pendingWait is a wait_for call in flight.
type pendingWait struct {
	cancel context.CancelFunc
	done   chan *mcp.CallToolResult // nil: the call failed (cancelled)
}

// startWaits starts a session's worth of waits, each for an element
// labelled prefix and its number to appear. A wait answered busy is sent
// again (it is safe to) until it gets in.
func startWaits(cs *mcp.ClientSession, prefix string, args func(string, int) map[string]any) []pendingWait {
	var waits []pendingWait
	for i := range engine.MaxWaitsPerSession {
		ctx, cancel := context.WithCancel(context.Background())
		p := pendingWait{cancel: cancel, done: make(chan *mcp.CallToolResult, 1)}
		go func() {
			var res *mcp.CallToolResult
			testkit.Poll(10*time.Second, func() bool {
				res, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait_for", Arguments: args(prefix+strconv.Itoa(i), 30000)})
				return res == nil || !res.IsError || !strings.HasPrefix(textOf(res), string(engine.CodeBusy)+":")
			})
			p.done <- res
		}()
		waits = append(waits, p)
	}
	return waits
}

// cancelWaits cancels waits (the SDK tells the driver) and waits for
// their calls to return.
func cancelWaits(waits []pendingWait) {
	stopWaits(waits)
	for _, p := range waits {
		<-p.done
	}
}

// stopWaits cancels waits (the test's cleanup: some may be answered).
func stopWaits(waits []pendingWait) {
	for _, p := range waits {
		p.cancel()
	}
}

// textOf is a result's first text block.
func textOf(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// waitsListening waits until n of the mock's WaitChange calls are in
// flight: n waits have read their window and listen to it.
func waitsListening(t *testing.T, desk *mock.Desktop, n int) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, strconv.Itoa(n)+" waits listening", func() bool { return desk.WaitsListening() == n })
}
