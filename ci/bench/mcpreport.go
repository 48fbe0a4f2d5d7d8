package main

import (
	"fmt"
	"io"
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
			e, cl := ms(medianDuration(f.engine)), ms(medianDuration(f.client))
			lines = append(lines, []string{r.subject.name, c.name, fmt.Sprintf("%.1f", e), fmt.Sprintf("%.1f", cl),
				fmt.Sprintf("%.2f", cl/e), fmt.Sprint(f.replyBytes)})
		}
	}
	if len(lines) == 1 {
		return false
	}
	fmt.Fprintln(w, "the agent loop through MCP: engine = engine.Conn.Call in-process; client = the built nish-driver over stdio,")
	fmt.Fprintf(w, "from the request's write to the reply's last byte; cold = a whole read (%.1f s after the last, past snapshot keeping),\n", reuseAge.Seconds())
	fmt.Fprintf(w, "median of %d; re-read = the unchanged window (kept snapshot) and find_elements {role: push_button, label: Click me}, median of %d;\n", coldRuns, runs)
	fmt.Fprintf(w, "click = a headless click on Click me's token from a read {pid} just before (untimed), median of %d; after a pause = %.1f s\n", runs, reuseAge.Seconds())
	fmt.Fprintf(w, "between the read and the click, median of %d (the engine's figures are the click phase's):\n", coldRuns)
	writeAligned(w, lines)
	return true
}

// loopChecks are the targets for the client-seen path, on the
// 1,000-row window (5,000 rows returned): the cold full read seen by a
// client within 1.3× the engine's time for it, and a kept re-read seen by
// a client within 0.35× the cold read's client-seen time.
func loopChecks(rows []row) []check {
	r, ok := findRows(rows, x11, 1000)
	ok = ok && r.mcp != nil && r.mcp.failed == ""
	var cold, kept *loopFigures
	if ok {
		cold, kept = r.mcp.calls["cold read"], r.mcp.calls["re-read (kept)"]
		ok = cold != nil && kept != nil && len(cold.engine) > 0 && len(cold.client) > 0 && len(kept.client) > 0
	}
	c1 := check{target: "1000 rows: full read seen by an MCP client ≤ 1.3× the engine's time", missing: !ok}
	c2 := check{target: "1000 rows: re-read of the unchanged window seen by an MCP client ≤ 0.35× the cold read's", missing: !ok}
	if ok {
		e, cc, kc := ms(medianDuration(cold.engine)), ms(medianDuration(cold.client)), ms(medianDuration(kept.client))
		c1.measured = fmt.Sprintf("%.2f× (client %.1f ms / engine %.1f ms, %d bytes)", cc/e, cc, e, cold.replyBytes)
		c1.met = cc <= 1.3*e
		c2.measured = fmt.Sprintf("%.2f× (re-read %.1f ms / cold %.1f ms)", kc/cc, kc, cc)
		c2.met = kc <= 0.35*cc
	}
	return []check{c1, c2}
}
