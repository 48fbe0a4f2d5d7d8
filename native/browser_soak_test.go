package native_test

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// BenchmarkBrowserSoak is the browsers' long run: 1,000 mixed reads and
// acts on the fixture page in Chromium and in Firefox (b.N times that with
// a -benchtime above 1x), checking after every step that the browser's main
// process still runs. It is outside `make test` and `make bench`, as it
// takes minutes:
//
//	go test ./native -run '^$' -bench BrowserSoak -benchtime 1x
//
// The steps are a fixed mix in a fixed pseudo-random order (the same every
// run): full, default, skeleton, drill-down and screenshot reads; clicks on
// Save, on the Subscribe check box and on the page's anchor links;
// set_value on the Volume range input. An act, or a drill-down, takes its
// token from a read made since the last act, as a model would; when the
// step before was an act, the step reads first (that read is part of the
// step, and counted among its calls). A failed call is counted by its error
// code, never fatal (the first of each code is printed with its message);
// a browser that dies fails the benchmark at once. Each browser's run ends
// with a table on stdout: per step kind, how many ran, the median time,
// the acts' effects and the failures by code.
func BenchmarkBrowserSoak(b *testing.B) {
	for _, kind := range browsers {
		b.Run(kind.String(), func(b *testing.B) {
			br, h, _ := grantedBrowser(b, kind, engine.Options{})
			s := &soak{h: h, pid: br.pid, stats: map[soakKind]*soakStats{}}
			start := time.Now()
			plan := soakPlan(soakSteps*b.N, 1)
			for i, k := range plan {
				s.run(b, k, i)
				if err := br.running(); err != nil {
					b.Fatalf("%s died at step %d of %d (%s) after %v: %v\n%s",
						kind, i+1, len(plan), k, time.Since(start).Round(time.Second), err, s.table())
				}
			}
			// Printed, not logged: a benchmark's log is cut at ten lines.
			fmt.Printf("%s soak: %d steps, %d tool calls in %v, the browser ran throughout\n%s",
				kind, len(plan), s.calls, time.Since(start).Round(time.Second), s.table())
			b.ReportMetric(float64(len(plan)), "steps")
			b.ReportMetric(float64(s.calls), "calls")
			b.ReportMetric(float64(s.failures()), "failed-calls")
		})
	}
}

// soakSteps is one soak's length per browser.
const soakSteps = 1000

// soakKind is one kind of soak step.
type soakKind string

const (
	soakFull       soakKind = "full read"
	soakDefault    soakKind = "default read"
	soakSkeleton   soakKind = "skeleton read"
	soakDrill      soakKind = "drill-down read"
	soakScreenshot soakKind = "screenshot read"
	soakSave       soakKind = "click Save"
	soakSubscribe  soakKind = "click Subscribe"
	soakVolume     soakKind = "set_value Volume"
	soakLink       soakKind = "click a link"
)

// soakMix is each kind's share of the steps, in hundredths.
var soakMix = []struct {
	kind  soakKind
	share int
}{
	{soakFull, 15}, {soakDefault, 10}, {soakSkeleton, 10}, {soakDrill, 10}, {soakScreenshot, 5},
	{soakSave, 15}, {soakSubscribe, 10}, {soakVolume, 15}, {soakLink, 10},
}

// soakPlan is n steps in the mix's shares, shuffled by a fixed seed.
func soakPlan(n int, seed uint64) []soakKind {
	var plan []soakKind
	for _, m := range soakMix {
		for i := 0; i < n*m.share/100; i++ {
			plan = append(plan, m.kind)
		}
	}
	for len(plan) < n {
		plan = append(plan, soakFull)
	}
	r := rand.New(rand.NewPCG(seed, seed))
	r.Shuffle(len(plan), func(i, j int) { plan[i], plan[j] = plan[j], plan[i] })
	return plan
}

// TestSoakPlan checks the soak's mix: every step counted once, in the
// mix's shares, in the same order for the same seed.
func TestSoakPlan(t *testing.T) {
	cases := []struct {
		n    int
		seed uint64
	}{{1000, 1}, {2000, 1}, {1003, 7}}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			plan := soakPlan(c.n, c.seed)
			if len(plan) != c.n {
				t.Fatalf("%d steps, want %d", len(plan), c.n)
			}
			count := map[soakKind]int{}
			for _, k := range plan {
				count[k]++
			}
			for _, m := range soakMix {
				if got, want := count[m.kind], c.n*m.share/100; got < want || got > want+c.n%100 {
					t.Fatalf("%s: %d steps, want %d", m.kind, got, want)
				}
			}
			if again := soakPlan(c.n, c.seed); strings.Join(kinds(again), ",") != strings.Join(kinds(plan), ",") {
				t.Fatal("the same seed gave another order")
			}
		})
	}
	total := 0
	for _, m := range soakMix {
		total += m.share
	}
	if total != 100 {
		t.Fatalf("the mix's shares add up to %d, want 100", total)
	}
}

func kinds(plan []soakKind) []string {
	out := make([]string, len(plan))
	for i, k := range plan {
		out[i] = string(k)
	}
	return out
}

// soak is one browser's run.
type soak struct {
	h   *harness
	pid int
	// read is the newest read made since the last act (nil after an act).
	read  map[string]any
	calls int
	stats map[soakKind]*soakStats
}

// soakStats are one step kind's figures.
type soakStats struct {
	times []time.Duration
	// failures counts failed calls by error code, and steps that could
	// not make their call by a reason in parentheses.
	failures map[string]int
	effects  map[string]int
}

func (s *soak) statsOf(k soakKind) *soakStats {
	st := s.stats[k]
	if st == nil {
		st = &soakStats{failures: map[string]int{}, effects: map[string]int{}}
		s.stats[k] = st
	}
	return st
}

// call makes one tool call of a step, counting a failure by its code; ok
// is false when it failed.
func (s *soak) call(st *soakStats, tool string, args map[string]any) (engine.Result, map[string]any, bool) {
	s.calls++
	r := s.h.call(tool, args)
	if r.Err != nil {
		if st.failures[string(r.Err.Code)] == 0 {
			// The first of each code, to tell why (the fixture's own
			// text is all it can quote).
			fmt.Printf("soak: %s: first %s: %s\n", tool, r.Err.Code, r.Text)
		}
		st.failures[string(r.Err.Code)]++
		return r, nil, false
	}
	return r, testkit.Decode(s.h.t, r.Structured), true
}

// fresh returns a read made since the last act, reading the window
// ({pid}, or a skeleton when skeleton) when there is none.
func (s *soak) fresh(st *soakStats, skeleton bool) (map[string]any, bool) {
	if s.read != nil {
		return s.read, true
	}
	args := map[string]any{"pid": s.pid}
	if skeleton {
		args["skeleton"] = true
	}
	_, read, ok := s.call(st, "get_window_state", args)
	if ok {
		s.read = read
	}
	return read, ok
}

// token is the token of the first row of one of roles whose label is
// label ("" for any), or "" when there is none: the soak counts a missing
// element instead of failing.
func token(read map[string]any, label string, roles ...string) string {
	row, _ := testkit.FindRowOf(read, label, roles...)
	tok, _ := row["element_token"].(string)
	return tok
}

// Reasons a step could not make its call, counted beside the error codes
// (in parentheses: they are not the driver's codes).
const (
	errNoElement = "(element not in the read)"
	errNoImage   = "(no image)"
)

// links are the page's anchor links the soak clicks in turn.
var links = []string{"Account", "Items", "Data"}

// run makes step i, of kind k.
func (s *soak) run(b *testing.B, k soakKind, i int) {
	b.Helper()
	st := s.statsOf(k)
	start := time.Now()
	defer func() { st.times = append(st.times, time.Since(start)) }()
	read := func(args map[string]any) {
		if _, r, ok := s.call(st, "get_window_state", args); ok {
			s.read = r
		}
	}
	act := func(tool, label string, roles []string, args map[string]any) {
		r, ok := s.fresh(st, false)
		if !ok {
			return
		}
		tok := token(r, label, roles...)
		if tok == "" {
			// The read since the last act was a skeleton or a region
			// without the element: read the window, as a model would.
			s.read = nil
			if r, ok = s.fresh(st, false); !ok {
				return
			}
			tok = token(r, label, roles...)
		}
		if tok == "" {
			st.failures[errNoElement]++
			return
		}
		args["element_token"] = tok
		s.read = nil
		if _, res, ok := s.call(st, tool, args); ok {
			st.effects[asString(res["effect"])]++
		}
	}
	switch k {
	case soakFull:
		read(map[string]any{"pid": s.pid, "max_elements": 5000})
	case soakDefault:
		read(map[string]any{"pid": s.pid})
	case soakSkeleton:
		read(map[string]any{"pid": s.pid, "skeleton": true})
	case soakScreenshot:
		r, res, ok := s.call(st, "get_window_state", map[string]any{"pid": s.pid, "include_screenshot": true})
		if ok && r.Image == nil {
			st.failures[errNoImage]++
		} else if ok {
			s.read = res
		}
	case soakDrill:
		// Into the page, or into its table, in turn.
		r, ok := s.fresh(st, true)
		if !ok {
			return
		}
		roles := []string{"document_web", "document_frame"}
		if i%2 == 1 {
			roles = []string{"table"}
		}
		root := token(r, "", roles...)
		if root == "" {
			// A skeleton may leave the table out: read the window.
			s.read = nil
			if r, ok = s.fresh(st, false); !ok {
				return
			}
			root = token(r, "", roles...)
		}
		if root == "" {
			st.failures[errNoElement]++
			return
		}
		read(map[string]any{"root": root, "max_elements": 5000})
	case soakSave:
		act("click", "Save", []string{"push_button"}, map[string]any{})
	case soakSubscribe:
		act("click", "Subscribe", []string{"check_box"}, map[string]any{})
	case soakVolume:
		act("set_value", "Volume", []string{"slider"}, map[string]any{"value": i % 101})
	case soakLink:
		act("click", links[i%len(links)], []string{"link"}, map[string]any{})
	}
}

// failures is the count of failed calls and steps of every kind.
func (s *soak) failures() int {
	n := 0
	for _, st := range s.stats {
		for _, c := range st.failures {
			n += c
		}
	}
	return n
}

// table is the run's figures, one line per step kind.
func (s *soak) table() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-18s %6s %10s  %-40s %s\n", "step", "runs", "median ms", "effects", "failures by code")
	for _, m := range soakMix {
		st := s.stats[m.kind]
		if st == nil {
			continue
		}
		fmt.Fprintf(&sb, "%-18s %6d %10.1f  %-40s %s\n", m.kind, len(st.times), stats.MedianMs(st.times),
			countsText(st.effects), countsText(st.failures))
	}
	return sb.String()
}

// countsText is "a=1 b=2" in key order, or "-" for none.
func countsText(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}
