package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

func TestCPUModel(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"first model name", "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nprocessor\t: 1\nmodel name\t: Other\n", "AMD EPYC 7B13"},
		{"none", "processor\t: 0\n", "unknown"},
		{"empty value", "model name\t:\n", "unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := cpuModelFrom(bufio.NewScanner(strings.NewReader(c.in))); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// synthRow is a measured synthetic window with a full re-read median of
// fullMs, a pyatspi walk of walkMs and the given bytes.
func synthRow(rows int, fullMs, walkMs float64, fullBytes, skelBytes int) row {
	d := msDur(fullMs)
	return row{
		subject:   subject{name: "synthetic", rows: rows},
		elements:  rows * 5,
		fullFirst: 2 * d,
		fullReads: []time.Duration{d, d, d},
		skelReads: []time.Duration{d / 4},
		fullBytes: fullBytes, skelBytes: skelBytes,
		walkMs: []float64{walkMs}, walkElems: rows * 5,
	}
}

// withLoop gives a row MCP phase figures: the whole read's engine and
// client times, the kept re-read's client time and a fresh driver's first
// read's client time, in ms.
func withLoop(r row, engineWhole, clientWhole, clientKept, clientFirst float64) row {
	d := func(v float64) []time.Duration { return []time.Duration{msDur(v)} }
	r.mcp = &mcpRow{calls: map[string]*loopFigures{
		"first read":     {engine: d(clientFirst * 0.9), client: d(clientFirst), replyBytes: 1274600},
		"whole read":     {engine: d(engineWhole), client: d(clientWhole), replyBytes: 1274600},
		"re-read (kept)": {engine: d(clientKept / 2), client: d(clientKept), replyBytes: 1274620},
		"find_elements":  {engine: d(20), client: d(21), replyBytes: 700},
	}}
	return r
}

func TestVerdict(t *testing.T) {
	cases := []struct {
		name   string
		rows   []row
		met    []bool // per check, in verdict order
		failed int
	}{
		{"every target met", []row{
			synthRow(200, 25, 900, 1000, 100),
			synthRow(500, 60, 2000, 1000, 100),
			withLoop(synthRow(1000, 120, 4000, 1000, 100), 120, 150, 40, 225),
		}, []bool{true, true, true, true, true, true, true, true, true}, 0},
		{"slow reads, fat skeletons", []row{
			synthRow(200, 31, 900, 1000, 151),
			synthRow(500, 60, 2000, 1000, 150),
			withLoop(synthRow(1000, 151, 3000, 1000, 100), 151, 200, 80, 560),
		}, []bool{false, false, false, false, true, true, false, false, false}, 0},
		{"fast but under 25x", []row{
			synthRow(200, 20, 900, 1000, 100),
			synthRow(500, 60, 2000, 1000, 100),
			withLoop(synthRow(1000, 140, 3000, 1000, 100), 100, 131, 45, 197),
		}, []bool{true, false, true, true, true, true, false, true, false}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := verdict(c.rows)
			if len(v.checks) != len(c.met) || len(v.failed) != c.failed {
				t.Fatalf("%d checks, %d failed", len(v.checks), len(v.failed))
			}
			for i, ch := range v.checks {
				if ch.missing || ch.met != c.met[i] {
					t.Fatalf("check %q: met=%v missing=%v, want met=%v", ch.target, ch.met, ch.missing, c.met[i])
				}
			}
		})
	}

	t.Run("the app's own first-time work is a note", func(t *testing.T) {
		big := withLoop(synthRow(1000, 120, 4000, 1000, 100), 120, 150, 40, 200)
		big.fullFirst = 500 * time.Millisecond // a fresh app; the MCP phase's engine first read is 180 ms
		v := verdict([]row{big})
		if len(v.notes) != 1 || !strings.Contains(v.notes[0], "500.0 ms on a fresh app, 180.0 ms on the app already read") ||
			!strings.Contains(v.notes[0], "about 320.0 ms") {
			t.Fatalf("notes: %q", v.notes)
		}
	})

	t.Run("default reads are notes, judged against nothing", func(t *testing.T) {
		small := synthRow(200, 50, 900, 1000, 100)
		small.dfltReads = []time.Duration{30 * time.Millisecond}
		v := verdict([]row{small})
		if len(v.notes) != 1 || !strings.Contains(v.notes[0], "30.0 ms median, 30.0×") {
			t.Fatalf("notes: %q", v.notes)
		}
	})

	t.Run("a failed subject is reported and its targets not measured", func(t *testing.T) {
		failed := row{subject: subject{name: "synthetic 1000 rows", rows: 1000}, failed: "start: not on the accessibility bus"}
		v := verdict([]row{synthRow(200, 25, 900, 1000, 100), failed})
		if len(v.failed) != 1 {
			t.Fatalf("failed: %d", len(v.failed))
		}
		var buf bytes.Buffer
		printVerdict(&buf, v)
		out := buf.String()
		for _, want := range []string{"NOT MEASURED  1000 rows: full read", "FAILED        synthetic 1000 rows: start:", "met           200 rows: full read"} {
			if !strings.Contains(out, want) {
				t.Fatalf("verdict lacks %q:\n%s", want, out)
			}
		}
	})
}

func TestLoopTable(t *testing.T) {
	big := withLoop(synthRow(1000, 120, 4000, 1000, 100), 120, 150, 40, 210)
	big.subject.name = "synthetic 1000 rows"
	noLoop := synthRow(200, 25, 900, 1000, 100)
	var buf bytes.Buffer
	if !printLoop(&buf, []row{noLoop, big}, 10) {
		t.Fatal("printLoop wrote nothing")
	}
	out := buf.String()
	for _, want := range []string{"first read", "210.0", "whole read", "120.0", "150.0", "1.25", "1274600", "re-read (kept)", "find_elements"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the loop table lacks %q:\n%s", want, out)
		}
	}
	if printLoop(&bytes.Buffer{}, []row{noLoop}, 10) {
		t.Error("printLoop wrote a table for rows without an MCP phase")
	}
}

func TestTable(t *testing.T) {
	ok := synthRow(1000, 120, 4000, 1000, 100)
	ok.truncated = true
	ok.subject.name = "synthetic 1000 rows"
	failed := row{subject: subject{name: "gedit"}, failed: "start: did not start"}
	var buf bytes.Buffer
	printTable(&buf, machine{cpus: 2, model: "Test CPU", date: "2026-01-01 00:00 UTC", goVer: "go1", load: "0.5"}, []row{ok, failed}, 10, 3)
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	if !strings.Contains(lines[1], "2 CPUs") || !strings.Contains(lines[1], "Test CPU") || !strings.Contains(buf.String(), "2026-01-01") {
		t.Fatalf("header does not name the machine and date:\n%s", buf.String())
	}
	n := len(lines)
	head, good, bad := lines[n-3], lines[n-2], lines[n-1]
	if w := utf8.RuneCountInString(head); utf8.RuneCountInString(good) != w || utf8.RuneCountInString(bad) != w {
		t.Fatalf("columns are not aligned:\n%s\n%s\n%s", head, good, bad)
	}
	for _, want := range []string{"5000+", "120.0", "10.0", "33.3"} {
		if !strings.Contains(good, want) {
			t.Fatalf("row lacks %q: %s", want, good)
		}
	}
	if !strings.Contains(bad, "FAILED") {
		t.Fatalf("failed row: %s", bad)
	}
}

// browserRow is a measured browser on the fixture page: elements read,
// elements walked, full re-read median, whole read median and walk
// median (a whole read of 0 ms: none measured).
func browserRow(kind sandbox.Browser, elems, walked int, fullMs, wholeMs, walkMs float64) row {
	d := msDur(fullMs)
	r := row{
		subject:   subject{name: kind.String() + " form.html", browser: kind},
		elements:  elems,
		fullFirst: 2 * d,
		fullReads: []time.Duration{d, d, d},
		walkMs:    []float64{walkMs}, walkElems: walked,
	}
	if wholeMs > 0 {
		w := msDur(wholeMs)
		r.wholeReads = []time.Duration{w, 2 * w, w}
	}
	return r
}

func TestBrowserChecks(t *testing.T) {
	cases := []struct {
		name string
		rows []row
		// per browser in row order: count, then speed, then (Firefox)
		// the whole read's speed
		met []bool
	}{
		{"complete and fast", []row{browserRow(sandbox.Chromium, 2374, 2374, 30, 60, 900)}, []bool{true, true}},
		{"2 % short is still complete", []row{browserRow(sandbox.Firefox, 98, 100, 10, 15, 100)}, []bool{true, true, true}},
		{"more than 2 % short", []row{browserRow(sandbox.Firefox, 97, 100, 10, 15, 100)}, []bool{false, true, true}},
		{"more than 2 % over", []row{browserRow(sandbox.Firefox, 103, 100, 10, 15, 100)}, []bool{false, true, true}},
		{"under 10x", []row{browserRow(sandbox.Firefox, 1306, 1306, 88, 88, 256)}, []bool{true, false, false}},
		{"kept read over 10x, whole read under 5x", []row{browserRow(sandbox.Firefox, 1313, 1313, 5, 45, 200)}, []bool{true, true, false}},
		{"whole read at 5x", []row{browserRow(sandbox.Firefox, 1313, 1313, 5, 40, 200)}, []bool{true, true, true}},
		{"both browsers, in order", []row{
			synthRow(200, 25, 900, 1000, 100),
			browserRow(sandbox.Chromium, 2374, 2374, 30, 60, 900),
			browserRow(sandbox.Firefox, 1306, 1306, 88, 88, 256),
		}, []bool{true, true, true, false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := browserChecks(c.rows)
			if len(got) != len(c.met) {
				t.Fatalf("%d checks, want %d", len(got), len(c.met))
			}
			for i, ch := range got {
				if ch.missing || ch.met != c.met[i] {
					t.Fatalf("check %q (%s): met=%v missing=%v, want met=%v", ch.target, ch.measured, ch.met, ch.missing, c.met[i])
				}
			}
		})
	}

	t.Run("a Firefox row without whole reads has its whole-read check not measured", func(t *testing.T) {
		got := browserChecks([]row{browserRow(sandbox.Firefox, 1313, 1313, 5, 0, 200)})
		if len(got) != 3 || got[0].missing || got[1].missing || !got[2].missing {
			t.Fatalf("checks %+v: want the count and speed measured, the whole read's missing", got)
		}
	})

	t.Run("a browser that could not be measured is not measured", func(t *testing.T) {
		failed := row{subject: subject{name: "Firefox form.html", browser: sandbox.Firefox}, failed: "start: not on the accessibility bus"}
		for _, ch := range browserChecks([]row{failed}) {
			if !ch.missing {
				t.Fatalf("check %q is not marked missing", ch.target)
			}
		}
	})
}
