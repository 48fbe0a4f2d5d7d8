package main

import (
	"fmt"
	"io"

	"github.com/nish-driver/nish-driver/internal/stats"
)

// The lanes' own figures: the headless clicks, and the checks that hold
// the Wayland rows against the X11 rows of the same subjects.

// laneRatio is how far Wayland may be from X11 for the same window: its
// whole read and its headless click each within 1.1× X11's.
const laneRatio = 1.1

// waylandWalkTimes is how many times faster than a pyatspi walk of the
// same window the Wayland whole read of the 1,000-row window must be.
const waylandWalkTimes = 10

// printClicks writes the click phase's table: per subject and lane, the
// button, the clicks' median end to end and the driver's own share of it,
// at once after a read and after a pause. It says whether it wrote
// anything.
func printClicks(w io.Writer, rows []row) bool {
	lines := [][]string{{"subject", "lane", "button", "clicks", "click median ms", "own median ms",
		"after a pause", "median ms", "own median ms"}}
	for _, r := range rows {
		if r.click == nil || len(r.click.total) == 0 {
			continue
		}
		lines = append(lines, []string{r.subject.name, r.lane.String(), r.subject.clickOn, fmt.Sprint(len(r.click.total)),
			fmt.Sprintf("%.1f", stats.MedianMs(r.click.total)), fmt.Sprintf("%.1f", stats.MedianMs(r.click.own)),
			fmt.Sprint(len(r.click.paused)), fmt.Sprintf("%.1f", stats.MedianMs(r.click.paused)),
			fmt.Sprintf("%.1f", stats.MedianMs(r.click.pausedOwn))})
	}
	if len(lines) == 1 {
		return false
	}
	fmt.Fprintln(w, "headless clicks with settle, engine.Conn.Call, each after a read {pid} as a model clicks: at once, and after a")
	fmt.Fprintf(w, "pause of %.1f s (past the engine's keeping of the read: the act reads the window first); own = the click\n", reuseAge.Seconds())
	fmt.Fprintln(w, "minus the wait for the app to go quiet (engine.ActTrace):")
	writeAligned(w, lines)
	return true
}

// laneChecks are the Wayland lane's targets, when the run has Wayland
// rows: each Wayland subject's whole read within laneRatio of the X11
// whole read of the same window; the 1,000-row window on Wayland at least
// waylandWalkTimes a pyatspi walk on the same desktop; the headless click
// on Wayland within laneRatio of X11's.
//
// The lanes are compared on whole reads, not the kept re-reads of the main
// table: a kept read asks the app nothing, and what the lanes differ in is
// what the driver asks of the bus (the kept re-reads are said beside).
// The walk ratio is the main table's speedup, as the X11 row's 25× target
// is, with the whole read's ratio said beside it.
func laneChecks(rows []row) []check {
	var out []check
	ran := false
	for _, r := range rows {
		if r.lane != wayland {
			continue
		}
		ran = true
		x, ok := laneRow(rows, x11, r.subject.name)
		ok = ok && r.failed == "" && len(x.wholeReads) > 0 && len(r.wholeReads) > 0
		c := check{target: fmt.Sprintf("%s: Wayland whole read ≤ %.1f× the X11 one", r.subject.name, laneRatio), missing: !ok}
		if ok {
			wl, xl := stats.Ms(r.wholeMedian()), stats.Ms(x.wholeMedian())
			c.measured = fmt.Sprintf("%.2f× (wayland %.1f ms / x11 %.1f ms; kept re-reads %.1f / %.1f ms",
				wl/xl, wl, xl, stats.Ms(r.fullMedian()), stats.Ms(x.fullMedian()))
			if r.walkMedian() > 0 && x.walkMedian() > 0 {
				// The same ratio with each lane's read over its own walk:
				// what is left when the app itself answers slower on one
				// desktop (the walk asks it the same things on both).
				c.measured += fmt.Sprintf("; over each lane's walk %.2f×", (wl/r.walkMedian())/(xl/x.walkMedian()))
			}
			c.measured += ")"
			c.met = wl <= laneRatio*xl
		}
		out = append(out, c)
	}
	if !ran {
		return nil
	}
	big, ok := findRows(rows, wayland, 1000)
	ok = ok && len(big.fullReads) > 0 && len(big.walkMs) > 0
	c := check{target: fmt.Sprintf("1000 rows on Wayland: ≥ %d× faster than the pyatspi walk", waylandWalkTimes), missing: !ok}
	if ok {
		c.measured = fmt.Sprintf("%.1f× (pyatspi %.0f ms / driver %.1f ms)", big.speedup(), big.walkMedian(), stats.Ms(big.fullMedian()))
		if len(big.wholeReads) > 0 {
			c.measured += fmt.Sprintf("; a whole read %.1f× (%.1f ms)", big.walkMedian()/stats.Ms(big.wholeMedian()), stats.Ms(big.wholeMedian()))
		}
		c.met = big.speedup() >= waylandWalkTimes
	}
	out = append(out, c)
	return append(out, clickCheck(rows))
}

// clickCheck is the headless click on Wayland against X11's, on the
// subject both lanes clicked.
func clickCheck(rows []row) check {
	c := check{target: fmt.Sprintf("headless click on Wayland ≤ %.1f× X11's", laneRatio), missing: true}
	for _, r := range rows {
		if r.lane != wayland || r.click == nil {
			continue
		}
		c.target = fmt.Sprintf("%s: headless click on Wayland ≤ %.1f× X11's", r.subject.name, laneRatio)
		x, ok := laneRow(rows, x11, r.subject.name)
		if !ok || x.click == nil || len(x.click.total) == 0 || len(r.click.total) == 0 {
			return c
		}
		wl, xl := stats.MedianMs(r.click.total), stats.MedianMs(x.click.total)
		c.missing = false
		c.measured = fmt.Sprintf("%.2f× (wayland %.1f ms / x11 %.1f ms; own work %.1f / %.1f ms)",
			wl/xl, wl, xl, stats.MedianMs(r.click.own), stats.MedianMs(x.click.own))
		c.met = wl <= laneRatio*xl
		return c
	}
	return c
}

// laneRow is the lane's measured row of the named subject.
func laneRow(rows []row, l lane, name string) (row, bool) {
	for _, r := range rows {
		if r.lane == l && r.subject.name == name {
			return r, r.failed == ""
		}
	}
	return row{}, false
}
