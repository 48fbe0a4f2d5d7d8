package main

import (
	"fmt"
	"io"

	"github.com/nish-driver/nish-driver/internal/stats"
)

// printLoop writes the MCP phase's table: for each subject that has one,
// each loop call's engine and client-seen medians, their ratio and the
// reply's size. It says whether it wrote anything.
func printLoop(w io.Writer, rows []row, runs int) bool {
	lines := [][]string{{"subject", "call", "engine ms", "client ms", "client ÷ engine", "reply bytes"}}
	for _, r := range rows {
		if r.mcp == nil || r.mcp.failed != "" {
			continue
		}
		for _, c := range loopCalls {
			f := r.mcp.calls[c.name]
			if f == nil || len(f.engine) == 0 || len(f.client) == 0 {
				continue
			}
			e, cl := stats.MedianMs(f.engine), stats.MedianMs(f.client)
			lines = append(lines, []string{r.subject.name, c.name, fmt.Sprintf("%.1f", e), fmt.Sprintf("%.1f", cl),
				fmt.Sprintf("%.2f", cl/e), fmt.Sprint(f.replyBytes)})
		}
	}
	if len(lines) == 1 {
		return false
	}
	fmt.Fprintln(w, "the agent loop through MCP: engine = engine.Conn.Call in-process; client = the built nish-driver over stdio,")
	fmt.Fprintln(w, "from the request's write to the reply's last byte; first = a fresh driver's first read (a new engine and backend;")
	fmt.Fprintf(w, "a newly started binary), median of %d drivers, of the app the read phase already read (its own first-time work is in\n", firstRuns)
	fmt.Fprintln(w, "full first ms);")
	fmt.Fprintf(w, "whole = a whole read (%.1f s after the last, past snapshot keeping), median of %d; re-read = the unchanged window\n", reuseAge.Seconds(), wholeRuns)
	fmt.Fprintf(w, "(kept snapshot) and find_elements {role: push_button, label: Click me}, median of %d;\n", runs)
	fmt.Fprintf(w, "click = a headless click on Click me's token from a read {pid} just before (untimed), median of %d; after a pause = %.1f s\n", runs, reuseAge.Seconds())
	fmt.Fprintf(w, "between the read and the click, median of %d (the engine's figures are the click phase's):\n", wholeRuns)
	writeAligned(w, lines)
	return true
}

// loopChecks are the targets for the client-seen path, on the
// 1,000-row window (5,000 rows returned): the whole full read seen by a
// client within 1.3× the engine's time for it, a kept re-read seen by a
// client within 0.35× the whole read's client-seen time, and a fresh
// driver's first read seen by a client within 1.5× the whole read's.
func loopChecks(rows []row) []check {
	r, ok := findRows(rows, x11, 1000)
	ok = ok && r.mcp != nil && r.mcp.failed == ""
	var first, whole, kept *loopFigures
	if ok {
		first, whole, kept = r.mcp.calls["first read"], r.mcp.calls["whole read"], r.mcp.calls["re-read (kept)"]
		ok = first != nil && whole != nil && kept != nil && len(whole.engine) > 0 && len(whole.client) > 0 &&
			len(kept.client) > 0 && len(first.client) > 0
	}
	c1 := check{target: "1000 rows: full read seen by an MCP client ≤ 1.3× the engine's time", missing: !ok}
	c2 := check{target: "1000 rows: re-read of the unchanged window seen by an MCP client ≤ 0.35× the whole read's", missing: !ok}
	c3 := check{target: "1000 rows: a fresh driver's first read seen by an MCP client ≤ 1.5× the whole read's", missing: !ok}
	if ok {
		e, wc, kc, fc := stats.MedianMs(whole.engine), stats.MedianMs(whole.client), stats.MedianMs(kept.client), stats.MedianMs(first.client)
		c1.measured = fmt.Sprintf("%.2f× (client %.1f ms / engine %.1f ms, %d bytes)", wc/e, wc, e, whole.replyBytes)
		c1.met = wc <= 1.3*e
		c2.measured = fmt.Sprintf("%.2f× (re-read %.1f ms / whole %.1f ms)", kc/wc, kc, wc)
		c2.met = kc <= 0.35*wc
		c3.measured = fmt.Sprintf("%.2f× (first %.1f ms / whole %.1f ms)", fc/wc, fc, wc)
		c3.met = fc <= 1.5*wc
	}
	return []check{c1, c2, c3}
}

// appFirstNote says what the app's own first-time work cost on the
// 1,000-row window: the read phase's first read (a fresh driver on a
// fresh app, which builds its accessible objects as they are asked for)
// against the MCP phase's engine first read (a fresh driver on the same
// app, already read).
func appFirstNote(rows []row) (string, bool) {
	r, ok := findRows(rows, x11, 1000)
	if !ok || r.mcp == nil || r.mcp.failed != "" || r.fullFirst == 0 {
		return "", false
	}
	first := r.mcp.calls["first read"]
	if first == nil || len(first.engine) == 0 {
		return "", false
	}
	fresh, again := stats.Ms(r.fullFirst), stats.MedianMs(first.engine)
	return fmt.Sprintf("1000 rows: a fresh driver's first read %.1f ms on a fresh app, %.1f ms on the app already read: the app's own first-time work about %.1f ms",
		fresh, again, fresh-again), true
}
