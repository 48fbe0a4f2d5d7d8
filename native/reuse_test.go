package native_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestSettledReadsMatchWholeReads checks the reads acts leave out
// (engine/reuse.go) against a real GTK app: the read before an act is
// reused when the app reported nothing since, and the settled read is the
// read before with the elements the app reported changed read again. After
// every act, the act's settled read (shown by observe) must equal a whole
// read of the window made right after it; a change GTK makes without
// reporting it would show here as a difference. A row added is reported
// as a child added, which the settled read follows by reading the new
// child's subtree and splicing it in (engine/patch.go).
func TestSettledReadsMatchWholeReads(t *testing.T) {
	onDesktop(t)
	a := startSynthetic(t, 6)
	pid := a.cmd.Process.Pid
	var mu sync.Mutex
	var traces []engine.ActTrace
	// The engine's clock: a read right after an act would keep the act's
	// snapshot (the app reported nothing since), so the whole read is
	// made past the reuse bound.
	clock := testkit.NewClock(time.Now())
	h := newHarnessWith(t, engine.Options{ConsentTimeout: consentWait, Clock: clock, ActTrace: func(tr engine.ActTrace) {
		mu.Lock()
		traces = append(traces, tr)
		mu.Unlock()
	}})
	grant(t, h, pid)

	acts := []struct {
		name      string
		role, lbl string // the row acted on ("" label: first of the role)
		value     string // or the row whose value is this
		tool      string
		args      map[string]any
	}{
		{name: "warm up (the backend starts listening)", role: "push_button", lbl: "Click me", tool: "click"},
		{name: "a button renaming a label", role: "push_button", lbl: "Click me", tool: "click"},
		{name: "a check box", role: "check_box", lbl: "Check 2", tool: "click"},
		{name: "typing", role: "text", value: "value 1", tool: "type_text", args: map[string]any{"text": " typed"}},
		{name: "a spin button", role: "spin_button", lbl: "Amount", tool: "set_value", args: map[string]any{"value": 7}},
		{name: "rows added", role: "push_button", lbl: "Add row", tool: "click"},
		{name: "the button again after rows were added", role: "push_button", lbl: "Click me", tool: "click"},
	}
	for _, act := range acts {
		read := h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
		tok := ""
		for _, e := range read["elements"].([]any) {
			row := e.(map[string]any)
			if row["role"] == act.role && (act.lbl != "" && row["label"] == act.lbl || act.value != "" && row["value"] == act.value) {
				tok = row["element_token"].(string)
				break
			}
		}
		if tok == "" {
			t.Fatalf("%s: no %s row %q/%q", act.name, act.role, act.lbl, act.value)
		}
		args := map[string]any{"element_token": tok, "observe": map[string]any{"tree": true}}
		for k, v := range act.args {
			args[k] = v
		}
		res := h.ok(act.tool, args)
		settled := testkit.RowLines(res["observe"].(map[string]any)["elements"])
		clock.Advance(3 * time.Second)
		wr := h.ok("get_window_state", map[string]any{"pid": pid})
		if wr["snapshot_kept"] == true {
			t.Fatalf("%s: the read after the act kept a snapshot instead of reading the window whole", act.name)
		}
		whole := testkit.RowLines(wr["elements"])
		if strings.Join(settled, "\n") != strings.Join(whole, "\n") {
			t.Errorf("%s: the settled read differs from a whole read made after it:\nsettled:\n%s\nwhole:\n%s",
				act.name, strings.Join(settled, "\n"), strings.Join(whole, "\n"))
		}
	}

	mu.Lock()
	defer mu.Unlock()
	reused, patched := 0, 0
	for i, tr := range traces {
		if i < len(acts) {
			t.Logf("%s: read before reused %v, settled read %s", acts[i].name, tr.PreReadReused, tr.PostReadKind)
		}
		if tr.PreReadReused {
			reused++
		}
		if tr.PostReadKind == engine.PostReadPatched {
			patched++
		}
	}
	// Every act after the first follows a fresh read of an app that was
	// quiet, so its read is reused; the label, check box, text and value
	// changes are reported element by element, so their settled reads are
	// patched.
	if reused < len(acts)-1 || patched < 4 {
		t.Errorf("reads reused %d of %d, settled reads patched %d (want ≥ %d and ≥ 4): the read-saving paths did not run",
			reused, len(traces), patched, len(acts)-1)
	}
}
