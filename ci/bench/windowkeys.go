package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/xtest"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// The window_keys phase: type_text of 100 characters into the fixture
// page's Name field, headless, on the window_keys path
// (docs/contract.md#window-keys), while a plain window holds the keyboard
// focus as the person's; the row is the call's time per 100 characters,
// end to end (the keys, a check before each batch, the settle and the
// diff). A run whose person's window lost the focus fails the row.

// typeRuns is how many type_text calls a subject gets.
const typeRuns = 10

// typeText is the 100 characters each call types.
var typeText = strings.Repeat("quiet keys", 10)

// typeRow is one subject's type_text calls.
type typeRow struct {
	total []time.Duration
	// own is the driver's share of each call: everything but the wait for
	// the app to go quiet after the keys (engine.ActTrace).
	own    []time.Duration
	failed string
}

// measureWindowKeys puts a plain window up as the person's, with the
// focus, and types typeText into the page's Name field typeRuns times.
func (s *session) measureWindowKeys(b *bench, pid int, tr *typeRow) error {
	other, err := xtest.Open(b.desk.Display)
	if err != nil {
		return fmt.Errorf("window keys: %v", err)
	}
	defer other.Close()
	x, err := xlib.Open(b.desk.Display)
	if err != nil {
		return fmt.Errorf("window keys: %v", err)
	}
	defer x.Close()
	person, err := other.NewPlainWindow(xtest.PlainWindow{Frame: xtest.Rect{X: 40, Y: 40, W: 300, H: 200}, RGB: 0x336699, Class: "person", Title: "person"})
	if err != nil {
		return fmt.Errorf("window keys: %v", err)
	}
	if err := x.Raise(person); err != nil {
		return fmt.Errorf("window keys: %v", err)
	}
	s.acts.take()
	for i := 0; i < typeRuns; i++ {
		res, d, err := s.typeIntoName(pid)
		if err != nil {
			return err
		}
		var act struct {
			Path string `json:"path"`
		}
		if err := decode(res.Structured, &act); err != nil || act.Path != string(engine.PathWindowKeys) {
			return fmt.Errorf("type_text took the path %q, not %s", act.Path, engine.PathWindowKeys)
		}
		if f, err := x.FocusedTopLevel(); err != nil || f != person {
			return errors.New("type_text: the person's window lost the keyboard focus")
		}
		tr.total = append(tr.total, d)
		for _, t := range s.acts.take() {
			tr.own = append(tr.own, t.Total-t.Quiet)
		}
	}
	return nil
}

// typeIntoName reads the window and types typeText into the page's Name
// field by the read's token, reading again when the token went stale in
// between (Chromium renames its tab, its memory use added, a moment after
// its window's focus changed); it returns type_text's result and time.
func (s *session) typeIntoName(pid int) (engine.Result, time.Duration, error) {
	for attempt := 0; ; attempt++ {
		res, _ := s.call("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
		if res.Err != nil {
			return res, 0, callErr("read before typing", res)
		}
		tok, err := tokenOf(res.Structured, "entry", "Name")
		if err != nil {
			return res, 0, err
		}
		res, d := s.call("type_text", map[string]any{"element_token": tok, "text": typeText})
		if res.Err != nil && res.Err.Code == engine.CodeStaleElementToken && attempt < 3 {
			s.acts.take() // the stale call's trace is not a typing's
			continue
		}
		if res.Err != nil {
			return res, 0, callErr("type_text", res)
		}
		return res, d, nil
	}
}

// printWindowKeys writes the window_keys phase's table; it says whether
// it wrote anything.
func printWindowKeys(w io.Writer, rows []row) bool {
	lines := [][]string{{"subject", "lane", "calls", "ms per 100 characters (median)", "min", "max", "own median ms"}}
	for _, r := range rows {
		if r.typing == nil || len(r.typing.total) == 0 {
			continue
		}
		lo, hi := r.typing.total[0], r.typing.total[0]
		for _, d := range r.typing.total {
			lo, hi = min(lo, d), max(hi, d)
		}
		lines = append(lines, []string{r.subject.name, r.lane.String(), fmt.Sprint(len(r.typing.total)),
			fmt.Sprintf("%.1f", stats.MedianMs(r.typing.total)), fmt.Sprintf("%.1f", stats.Ms(lo)), fmt.Sprintf("%.1f", stats.Ms(hi)),
			fmt.Sprintf("%.1f", stats.MedianMs(r.typing.own))})
	}
	if len(lines) == 1 {
		return false
	}
	fmt.Fprintf(w, "type_text of %d characters on the window_keys path (headless, a plain window holding the focus as the person's;\n", len(typeText))
	fmt.Fprintln(w, "each after a read, with settle and diff), engine.Conn.Call; own = the call minus the wait for the app to go quiet:")
	writeAligned(w, lines)
	return true
}
