package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParseLanes(t *testing.T) {
	cases := []struct {
		in      string
		want    []lane
		wantErr bool
	}{
		{"x11,wayland", []lane{x11, wayland}, false},
		{"wayland", []lane{wayland}, false},
		{"wayland, x11", []lane{wayland, x11}, false},
		{"x11,x11", []lane{x11}, false},
		{"x11,weston", nil, true},
		{"", nil, true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := parseLanes(c.in)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestLaneSubjects(t *testing.T) {
	all := subjects()
	if got := laneSubjects(all, x11); len(got) != len(all) {
		t.Fatalf("the X11 lane measures %d of %d subjects", len(got), len(all))
	}
	var names []string
	for _, s := range laneSubjects(all, wayland) {
		if s.mcp {
			t.Errorf("%s runs the MCP client phase on Wayland", s.name)
		}
		names = append(names, s.name)
	}
	if got := strings.Join(names, ", "); got != "synthetic 200 rows, synthetic 1000 rows, gnome-calculator" {
		t.Fatalf("the Wayland lane measures %s", got)
	}
	for _, s := range all {
		if s.name == "synthetic 1000 rows" && !s.mcp {
			t.Fatal("choosing the Wayland subjects changed the X11 subjects")
		}
	}
}

// laneRows are one subject's rows on both lanes, with whole reads of
// x11Ms and wlMs, kept re-reads of a tenth of that and walks of walkMs
// on Wayland, half that on X11.
func laneRows(rows int, x11Ms, wlMs, walkMs float64) (row, row) {
	x := synthRow(rows, x11Ms/10, walkMs/2, 1000, 100)
	x.subject.name = fmt.Sprintf("synthetic %d rows", rows)
	x.wholeReads = []time.Duration{msDur(x11Ms)}
	w := synthRow(rows, wlMs/10, walkMs, 1000, 100)
	w.subject.name, w.lane = x.subject.name, wayland
	w.wholeReads = []time.Duration{msDur(wlMs), msDur(wlMs), msDur(3 * wlMs)}
	return x, w
}

func msDur(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// clicked gives a row clicks of ms end to end and own ms of their own,
// and clicks after a pause of twice each.
func clicked(r row, ms, own float64) row {
	r.subject.clickOn = syntheticButton
	r.click = &clickRow{total: []time.Duration{msDur(ms), msDur(ms)}, own: []time.Duration{msDur(own)},
		paused: []time.Duration{msDur(2 * ms)}, pausedOwn: []time.Duration{msDur(2 * own)}}
	return r
}

func TestLaneChecks(t *testing.T) {
	x200, w200 := laneRows(200, 30, 32, 900)
	x1000, w1000 := laneRows(1000, 100, 105, 1500)
	slowX, slowW := laneRows(1000, 100, 111, 1000)
	slowW.fullReads = []time.Duration{msDur(111)} // a walk 9× the kept re-read
	failedW := w200
	failedW.failed = "start: not on the accessibility bus"
	cases := []struct {
		name string
		rows []row
		met  []bool // per check, in order; nil entries would be a miss
		miss []bool // per check: not measured
	}{
		{"no Wayland rows: no checks", []row{x200, x1000}, nil, nil},
		{"within 1.1x, 10x the walk, clicks alike", []row{clicked(x200, 55, 3), x1000, clicked(w200, 60, 4), w1000},
			[]bool{true, true, true, true}, []bool{false, false, false, false}},
		{"over 1.1x and under 10x, slow click", []row{clicked(x200, 50, 3), slowX, clicked(w200, 56, 4), slowW},
			[]bool{true, false, false, false}, []bool{false, false, false, false}},
		{"a failed Wayland row and no click", []row{x200, x1000, failedW, w1000},
			[]bool{false, true, true, false}, []bool{true, false, false, true}},
		{"no X11 row to compare with", []row{w1000},
			[]bool{false, true, false}, []bool{true, false, true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := laneChecks(c.rows)
			if len(got) != len(c.met) {
				t.Fatalf("%d checks, want %d: %+v", len(got), len(c.met), got)
			}
			for i, ch := range got {
				if ch.missing != c.miss[i] || (!ch.missing && ch.met != c.met[i]) {
					t.Fatalf("check %q (%s): met=%v missing=%v, want met=%v missing=%v", ch.target, ch.measured, ch.met, ch.missing, c.met[i], c.miss[i])
				}
			}
		})
	}

	t.Run("the figures are said as ratios", func(t *testing.T) {
		got := laneChecks([]row{clicked(x200, 50, 3), x1000, clicked(w200, 55, 4), w1000})
		for i, want := range []string{"1.07× (wayland 32.0 ms / x11 30.0 ms; kept re-reads 3.2 / 3.0 ms; over each lane's walk 0.53×)",
			"1.05× (wayland 105.0 ms",
			"142.9× (pyatspi 1500 ms / driver 10.5 ms); a whole read 14.3× (105.0 ms)",
			"1.10× (wayland 55.0 ms / x11 50.0 ms; own work 4.0 / 3.0 ms)"} {
			if !strings.HasPrefix(got[i].measured, want) {
				t.Errorf("check %q says %q, want it to begin %q", got[i].target, got[i].measured, want)
			}
		}
	})
}

func TestBesideX11(t *testing.T) {
	named := func(name string, l lane) row { return row{subject: subject{name: name}, lane: l} }
	in := []row{named("a", x11), named("b", x11), named("c", x11), named("b", wayland), named("a", wayland), named("d", wayland)}
	var got []string
	for _, r := range besideX11(in) {
		got = append(got, r.title())
	}
	if s := strings.Join(got, ", "); s != "a, a (wayland), b, b (wayland), c, d (wayland)" {
		t.Fatalf("order: %s", s)
	}
}

func TestClickTable(t *testing.T) {
	x, w := laneRows(200, 30, 32, 900)
	var buf bytes.Buffer
	if printClicks(&buf, []row{x, w}) {
		t.Fatal("a table for rows without clicks")
	}
	if !printClicks(&buf, []row{clicked(x, 54.2, 3.1), clicked(w, 56.8, 4.4)}) {
		t.Fatal("no table for rows with clicks")
	}
	out := buf.String()
	for _, want := range []string{"x11", "wayland", syntheticButton, "54.2", "56.8", "3.1", "4.4", "108.4", "113.6", "6.2", "8.8"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the click table lacks %q:\n%s", want, out)
		}
	}
}
