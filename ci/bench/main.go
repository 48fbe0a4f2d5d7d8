// Command bench is `make bench`: it starts one private desktop (package
// sandbox) and, one app at a time, measures the driver's reads through
// engine.Conn.Call exactly as an MCP host's calls arrive, beside a pyatspi
// walk of the same window run in the same minute. It prints one table and
// a verdict against the performance targets.
//
// It is a benchmark, not a test: nothing here fails on a slow machine. It
// exits non-zero only when a subject could not be measured at all.
//
// With the Wayland lane (-lanes, both by default) it then starts a
// headless GNOME Wayland desktop and measures the subjects marked for it
// again there, beside their X11 rows (lane.go).
//
//	go run ./ci/bench [-runs 10] [-walks 3] [-only NAME[,NAME...]] [-lanes x11,wayland] [-testdata native/atspi/testdata] [-bin bin/nish-driver]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/stats"
)

func main() {
	runs := flag.Int("runs", 10, "timed re-reads per read mode (after a warm-up)")
	walks := flag.Int("walks", 3, "pyatspi walks per window (the median is reported)")
	testdata := flag.String("testdata", "native/atspi/testdata", "folder holding synthetic.py, walk.py and web/form.html")
	only := flag.String("only", "", "measure only the subjects whose name holds this text, or one of these comma-separated texts (e.g. form.html for the browsers; KeePassXC,FeatherPad,Writer,Calc for the everyday apps)")
	bin := flag.String("bin", "", "the built nish-driver the MCP phase starts (default: build one into a temporary folder)")
	laneList := flag.String("lanes", "x11,wayland", "the desktops to measure on, in order: x11 (every subject), wayland (the subjects marked for it)")
	flag.Parse()
	if *runs < 1 || *walks < 1 {
		fmt.Fprintln(os.Stderr, "bench: -runs and -walks must be at least 1")
		os.Exit(2)
	}
	lanes, err := parseLanes(*laneList)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench: -lanes:", err)
		os.Exit(2)
	}
	dir, err := filepath.Abs(*testdata)
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "walk.py"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench: run from the repository root (or pass -testdata):", err)
		os.Exit(2)
	}

	cleanup := func() {}
	if *bin == "" {
		tmp, err := os.MkdirTemp("", "nish-bench-")
		if err == nil {
			cleanup = func() { os.RemoveAll(tmp) }
			*bin, err = buildDriver(tmp)
		}
		if err != nil {
			cleanup()
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
	} else if *bin, err = filepath.Abs(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}

	started := time.Now()
	m := describeMachine()
	var rows []row
	for _, l := range lanes {
		lr, err := measureLane(l, &bench{lane: l, testdata: dir, runs: *runs, walks: *walks, bin: *bin, stopped: map[int]bool{}}, *only)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: the %s test desktop did not start (make deps installs it): %v\n", l, err)
			cleanup()
			os.Exit(1)
		}
		rows = append(rows, lr...)
	}
	cleanup()
	rows = besideX11(rows)

	printTable(os.Stdout, m, rows, *runs, *walks)
	fmt.Println()
	printPhases(os.Stdout, rows)
	fmt.Println()
	if printClicks(os.Stdout, rows) {
		fmt.Println()
	}
	if printWindowKeys(os.Stdout, rows) {
		fmt.Println()
	}
	if printLoop(os.Stdout, rows, *runs) {
		fmt.Println()
	}
	printVerdict(os.Stdout, verdict(rows))
	fmt.Printf("\nwhole run: %.0f s; load average %s at the end\n", time.Since(started).Seconds(), loadAverage("/proc/loadavg"))
	for _, r := range rows {
		if r.failed != "" {
			os.Exit(1)
		}
	}
}

// measureLane starts the lane's desktop, measures the lane's chosen
// subjects on it one at a time, and closes it: one desktop runs at a time.
func measureLane(l lane, b *bench, only string) ([]row, error) {
	desk, err := sandbox.Start(context.Background(), l.options())
	if err != nil {
		return nil, err
	}
	defer desk.Close()
	b.desk = desk
	var rows []row
	for _, s := range laneSubjects(subjects(), l) {
		if !chosen(s.name, only) {
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: %s (%s) ...\n", s.name, l)
		r := b.measure(s)
		if r.failed != "" {
			fmt.Fprintf(os.Stderr, "bench: %s (%s) failed: %s\n", s.name, l, r.failed)
		} else {
			fmt.Fprintf(os.Stderr, "bench: %s (%s): full read first %.1f ms, re-reads %s ms, whole reads %s ms; pyatspi walks %s ms\n",
				s.name, l, stats.Ms(r.fullFirst), joinMs(r.fullReads), joinMs(r.wholeReads), joinFloats(r.walkMs))
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// chosen reports whether -only picks the subject: its name holds the text,
// or one of its comma-separated parts.
func chosen(name, only string) bool {
	for _, part := range strings.Split(only, ",") {
		if strings.Contains(name, part) {
			return true
		}
	}
	return false
}
