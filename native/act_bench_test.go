package native_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// BenchmarkHeadlessClick clicks a button whose handler changes a label, end
// to end with settle, on the 200-row synthetic window, and reports the
// median and the settle share (BenchmarkHeadlessAddRow the same for a
// button that adds an element). BenchmarkTypeText1000 types 1,000
// characters into an entry of a small form headless.
//
// Besides the end-to-end median they report, from the engine's act traces
// (engine.ActTrace), the driver's own work (everything but waiting for the
// app to go quiet), the act's own call into the app, and how often the
// read before the act was reused and the settled read patched.
func BenchmarkHeadlessClick(b *testing.B) { benchHeadlessClick(b, "Click me") }

// BenchmarkHeadlessAddRow is BenchmarkHeadlessClick on "Add row", whose
// handler adds a label to a grid: GTK 3 reports a child added, which the
// settled read follows by reading the new label and splicing it in
// (engine/patch.go) instead of reading the window whole.
func BenchmarkHeadlessAddRow(b *testing.B) { benchHeadlessClick(b, "Add row") }

// benchHeadlessClick clicks the button labelled button on the 200-row
// synthetic window, b.N times.
func benchHeadlessClick(b *testing.B, button string) {
	a := startSynthetic(b, 200)
	tr := &actTraces{}
	h := benchHarness(b, a, tr)
	var total []time.Duration
	var settle []float64 // the driver's own settle figure, in ms
	for i := 0; i < b.N; i++ {
		read := h.callB(b, "get_window_state", map[string]any{"pid": a.cmd.Process.Pid})
		tok := testkit.Token(b, read, "push_button", button)
		start := time.Now()
		res := h.callB(b, "click", map[string]any{"element_token": tok})
		total = append(total, time.Since(start))
		st := res["settle"].(map[string]any)
		settle = append(settle, st["ms"].(float64))
	}
	b.ReportMetric(stats.MedianMs(total), "median-ms")
	b.ReportMetric(stats.Median(settle), "settle-ms")
	tr.report(b)
}

func BenchmarkTypeText1000(b *testing.B) {
	a := startSynthetic(b, 3)
	tr := &actTraces{tool: "type_text"}
	h := benchHarness(b, a, tr)
	text := strings.Repeat("abcdefghij", 100)
	// The entry's row number is stable; find it once.
	read := h.callB(b, "get_window_state", map[string]any{"pid": a.cmd.Process.Pid})
	idx := ""
	for _, e := range read["elements"].([]any) {
		row := e.(map[string]any)
		if row["role"] == "text" && asString(row["value"]) == "value 1" {
			tok := row["element_token"].(string)
			idx = tok[strings.IndexByte(tok, ':'):]
		}
	}
	if idx == "" {
		b.Fatalf("no entry holding value 1:\n%v", read["tree_text"])
	}
	var total []time.Duration
	for i := 0; i < b.N; i++ {
		read := h.callB(b, "get_window_state", map[string]any{"pid": a.cmd.Process.Pid})
		tok := read["snapshot_id"].(string) + idx
		h.callB(b, "set_value", map[string]any{"element_token": tok, "value": "value 1"})
		start := time.Now()
		h.callB(b, "type_text", map[string]any{"element_token": tok, "text": text})
		total = append(total, time.Since(start))
	}
	b.ReportMetric(stats.MedianMs(total), "median-ms")
	tr.report(b)
}

// actTraces keeps the engine's traces of one tool's acts (all acts when
// tool is empty).
type actTraces struct {
	tool string
	mu   sync.Mutex
	all  []engine.ActTrace
}

func (tr *actTraces) add(t engine.ActTrace) {
	if tr.tool != "" && t.Tool != tr.tool {
		return
	}
	tr.mu.Lock()
	tr.all = append(tr.all, t)
	tr.mu.Unlock()
}

// ownShare is the driver's own share of an act: everything but waiting for
// the app to go quiet. It includes the act's call into the app (Perform).
func ownShare(t engine.ActTrace) time.Duration { return t.Total - t.Quiet }

// report adds the medians of the driver's own work, of its parts (the
// act's call into the app among them) and of the quiet wait, and the share
// of reused and patched reads.
func (tr *actTraces) report(b *testing.B) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var own, perform, quiet, resolve, pre, post, rest []time.Duration
	reused, patched := 0, 0
	for _, t := range tr.all {
		own = append(own, ownShare(t))
		perform = append(perform, t.Perform)
		quiet = append(quiet, t.Quiet)
		resolve = append(resolve, t.Resolve)
		pre = append(pre, t.PreRead)
		post = append(post, t.PostRead)
		rest = append(rest, ownShare(t)-t.Resolve-t.PreRead-t.Perform-t.PostRead)
		if t.PreReadReused {
			reused++
		}
		if t.PostReadKind == engine.PostReadPatched {
			patched++
		}
	}
	if len(tr.all) == 0 {
		b.Fatal("no act was traced")
	}
	b.ReportMetric(stats.MedianMs(own), "own-ms")
	b.ReportMetric(stats.MedianMs(perform), "perform-ms")
	b.ReportMetric(stats.MedianMs(quiet), "quiet-ms")
	b.ReportMetric(stats.MedianMs(resolve), "resolve-ms")
	b.ReportMetric(stats.MedianMs(pre), "pre-ms")
	b.ReportMetric(stats.MedianMs(post), "post-ms")
	// The rest of the own work: after a whole settled read, the values the
	// read before held, read again for the diff; the diff; the result.
	b.ReportMetric(stats.MedianMs(rest), "rest-ms")
	b.ReportMetric(float64(reused)/float64(len(tr.all)), "reused")
	b.ReportMetric(float64(patched)/float64(len(tr.all)), "patched")
}

type benchH struct{ c *engine.Conn }

// benchHarness opens a session on the app, the person allowing.
func benchHarness(b *testing.B, a *app, tr *actTraces) *benchH {
	h := newHarnessWith(b, engine.Options{ConsentTimeout: consentWait, ActTrace: tr.add})
	grant(b, h, a.cmd.Process.Pid)
	return &benchH{c: h.c}
}

func (h *benchH) callB(b *testing.B, tool string, args map[string]any) map[string]any {
	raw, _ := json.Marshal(args)
	r := h.c.Call(context.Background(), tool, raw)
	if r.Err != nil {
		b.Fatalf("%s: %s", tool, r.Text)
	}
	out, _ := json.Marshal(r.Structured)
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	return m
}
