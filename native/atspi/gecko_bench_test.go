package atspi

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/stats"
)

// Firefox (Gecko) on the browsers' fixture page: what each call the reader
// sends costs, one at a time and all in flight at once, and how the read
// compares with a pyatspi walk in the same run (docs/performance.md,
// Browsers). Firefox offers its private socket (at-spi2-atk), so the calls
// skip the bus daemon; each is answered on Firefox's main thread.
//
//	go test ./native/atspi -run '^$' -bench 'Gecko' -benchtime 1x

// geckoTarget is one element the call costs are measured on.
type geckoTarget struct {
	bus, path string
	ifaces    ifaceSet
	role      string
	node      *Node
}

// geckoCall is one kind of call, on the elements it applies to.
type geckoCall struct {
	name    string
	applies func(t geckoTarget) bool
	add     func(p *pipe, w *wireConn, i int, t geckoTarget)
}

var geckoCalls = []geckoCall{
	{"GetChildren", func(t geckoTarget) bool { return t.node.ChildCount > 0 }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindChildren}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetChildren")
	}},
	{"GetChildAtIndex", func(t geckoTarget) bool { return t.node.ChildCount > 0 }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindChildren}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetChildAtIndex", int32(0))
	}},
	{"GetRole", nil, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindRole}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetRole")
	}},
	{"GetState", nil, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindState}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetState")
	}},
	{"GetInterfaces", nil, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindIfaces}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetInterfaces")
	}},
	{"Name", nil, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindName}, t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "Name")
	}},
	{"Description", nil, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindDesc}, t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "Description")
	}},
	{"ChildCount", nil, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindChildCount}, t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "ChildCount")
	}},
	{"GetAttributes", nil, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindAttrs}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetAttributes")
	}},
	{"GetExtents", func(t geckoTarget) bool { return t.ifaces&ifComponent != 0 && t.node.HasState("showing") }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindExtents}, t.bus, t.path, "org.a11y.atspi.Component", "GetExtents", uint32(0))
	}},
	{"GetExtents hidden", func(t geckoTarget) bool { return t.ifaces&ifComponent != 0 && !t.node.HasState("showing") }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindExtents}, t.bus, t.path, "org.a11y.atspi.Component", "GetExtents", uint32(0))
	}},
	{"GetActions", func(t geckoTarget) bool { return t.ifaces&ifAction != 0 }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindActions}, t.bus, t.path, "org.a11y.atspi.Action", "GetActions")
	}},
	{"Action GetName", func(t geckoTarget) bool { return len(t.node.Actions) > 0 }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindActionName}, t.bus, t.path, "org.a11y.atspi.Action", "GetName", int32(0))
	}},
	{"CharacterCount", func(t geckoTarget) bool { return t.ifaces&ifText != 0 }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindTextLength}, t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Text", "CharacterCount")
	}},
	{"GetText", func(t geckoTarget) bool { return t.ifaces&ifText != 0 }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindText}, t.bus, t.path, "org.a11y.atspi.Text", "GetText", int32(0), int32(-1))
	}},
	{"CurrentValue", func(t geckoTarget) bool { return t.ifaces&ifValue != 0 }, func(p *pipe, w *wireConn, i int, t geckoTarget) {
		p.add(w, call{target: i, kind: kindValue}, t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Value", "CurrentValue")
	}},
}

// BenchmarkGeckoCalls reports, per kind of call, on every element of the
// fixture page it applies to: the round trip of one call at a time
// (serial-us), the cost per call with every call in flight at once
// (piped-us), and with at most 16 in flight (window16-us).
func BenchmarkGeckoCalls(b *testing.B) {
	f := startFirefox(b)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tree, err := client.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsAll})
	if err != nil {
		b.Fatal(err)
	}
	var all []geckoTarget
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		bus, path, _, err := client.parseID(ctx, n.ID, targetElement)
		if err != nil {
			b.Fatal(err)
		}
		ifs, _ := client.recallIfaces(n.ID)
		all = append(all, geckoTarget{bus: bus, path: path, ifaces: ifs, role: n.Role, node: n})
	}
	w, err := client.connFor(ctx, all[0].bus)
	if err != nil {
		b.Fatal(err)
	}
	rep, err := w.call(ctx, all[0].bus, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems")
	items := -1
	if err == nil {
		if its, err := decodeItems(rep); err == nil {
			items = len(its)
		}
	}
	b.Logf("elements %d, peer to peer %v, GetItems: %d items (err %v)", len(all), w.peer, items, err)
	roles := map[string]int{}
	for _, t := range all {
		roles[t.role]++
	}
	b.Logf("roles: %v", roles)
	for _, gc := range geckoCalls {
		var ts []geckoTarget
		for _, t := range all {
			if gc.applies == nil || gc.applies(t) {
				ts = append(ts, t)
			}
		}
		if len(ts) == 0 {
			continue
		}
		b.Run(strings.ReplaceAll(gc.name, " ", "_"), func(b *testing.B) {
			var serial, piped, win time.Duration
			var fails int
			for r := 0; r < b.N; r++ {
				serial += timeCalls(b, w, gc, ts, 1, &fails)
				piped += timeCalls(b, w, gc, ts, len(ts), &fails)
				win += timeCalls(b, w, gc, ts, 16, &fails)
			}
			per := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / float64(b.N*len(ts)) }
			b.ReportMetric(float64(len(ts)), "calls")
			b.ReportMetric(per(serial), "serial-us")
			b.ReportMetric(per(piped), "piped-us")
			b.ReportMetric(per(win), "window16-us")
			b.ReportMetric(float64(fails)/float64(3*b.N), "errors")
		})
	}
}

// timeCalls sends gc to every target with at most window calls in flight
// and returns how long until the last reply.
func timeCalls(b *testing.B, w *wireConn, gc geckoCall, ts []geckoTarget, window int, fails *int) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := newPipe(ctx)
	defer p.close()
	t0 := time.Now()
	next := 0
	for ; next < len(ts) && next < window; next++ {
		gc.add(p, w, next, ts[next])
	}
	p.flush()
	for {
		a, ok, err := p.next()
		if err != nil {
			b.Fatal(err)
		}
		if !ok {
			break
		}
		if a.err != nil {
			*fails++
		}
		if next < len(ts) {
			gc.add(p, w, next, ts[next])
			next++
			p.flush()
		}
	}
	return time.Since(t0)
}

// geckoWarmups is how many reads BenchmarkGeckoRead makes before timing:
// the first asks Firefox first (its action lists are not live yet), the
// next ones learn what the first could not (actionlists.go). Each is
// logged.
const geckoWarmups = 3

// BenchmarkGeckoRead reads the fixture page as the engine reads a window
// whole (the structure, then the details of every row through
// Client.Details), b.N times after geckoWarmups reads, and walks it with
// pyatspi three times in the same run: read-ms is the median read, x the
// median walk over it.
func BenchmarkGeckoRead(b *testing.B) {
	f := startFirefox(b)
	ctx := context.Background()
	bus, _, _, err := client.parseID(ctx, f.frame.ID, targetFrame)
	if err != nil {
		b.Fatal(err)
	}
	var structure, details, total []time.Duration
	var st ReadStats
	var calls, elements int
	for i := 0; i < geckoWarmups+b.N; i++ {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		count, stop := client.CountCalls(bus)
		t0 := time.Now()
		tree, err := client.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsNone, Stats: &st})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		nodes := make([]*Node, len(tree.Nodes))
		for k := range tree.Nodes {
			nodes[k] = &tree.Nodes[k]
		}
		if err := client.Details(ctx, nodes, DetailsAll); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		calls = count()
		stop()
		cancel()
		elements = len(tree.Nodes)
		if i < geckoWarmups {
			b.Logf("read %d: structure %.1f ms (%d cache items, %d fill-in calls), details %.1f ms, %d calls in all",
				i+1, stats.Ms(t1.Sub(t0)), st.CacheItems, st.FillCalls, stats.Ms(t2.Sub(t1)), calls)
			continue
		}
		structure = append(structure, t1.Sub(t0))
		details = append(details, t2.Sub(t1))
		total = append(total, t2.Sub(t0))
	}
	walks, walked := pyatspiWalks(b, f, 3)
	b.ReportMetric(float64(elements), "elements")
	b.ReportMetric(float64(walked), "walked")
	b.ReportMetric(float64(calls), "calls")
	b.ReportMetric(stats.MedianMs(structure), "structure-ms")
	b.ReportMetric(stats.MedianMs(details), "details-ms")
	b.ReportMetric(stats.MedianMs(total), "read-ms")
	b.ReportMetric(stats.Median(walks), "pyatspi-ms")
	b.ReportMetric(stats.Median(walks)/stats.MedianMs(total), "x")
}

// BenchmarkGeckoActionsSwitch measures how long after the first question
// about a page element's actions a freshly started Firefox answers it with
// the element's actions (actionlists.go): the Save button is asked every
// millisecond until it lists some.
func BenchmarkGeckoActionsSwitch(b *testing.B) {
	var waits []time.Duration
	for i := 0; i < b.N; i++ {
		f := startFirefox(b)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		tree, err := client.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsNone})
		if err != nil {
			b.Fatal(err)
		}
		var save *Node
		for k := range tree.Nodes {
			if n := &tree.Nodes[k]; n.Role == "push_button" && n.Name == "Save" {
				save = n
			}
		}
		if save == nil {
			b.Fatal("no Save button on the page")
		}
		bus, path, _, err := client.parseID(ctx, save.ID, targetElement)
		if err != nil {
			b.Fatal(err)
		}
		w, err := client.connFor(ctx, bus)
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		for {
			rep, err := w.call(ctx, bus, path, "org.a11y.atspi.Action", "GetActions")
			if err != nil {
				b.Fatal(err)
			}
			if len(decodeActionNames(rep.decoder())) > 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		waits = append(waits, time.Since(t0))
		cancel()
		f.stop()
	}
	b.ReportMetric(stats.MedianMs(waits), "switch-ms")
}
