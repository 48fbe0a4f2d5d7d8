package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// wait_for (docs/contract.md#wait-for): wait until a window shows what the
// model expects (an element appears or disappears, an element's label or
// value contains a text, the title contains a text) instead of sleeping and
// reading again. The wait reads the window once, then listens to the
// app's own change reports and after each reads and checks only the
// elements they name (waitreports.go, waitcheck.go), so a quiet app costs
// nothing and a change costs what changed, whatever the window's size.
// Without change reports it reads the window at a bounded interval.

// Wait limits.
const (
	defaultWaitTimeout = 5 * time.Second
	maxWaitTimeout     = 30 * time.Second
	// waitPoll is how often a wait reads the window when it hears no
	// change reports (its read is not marked).
	waitPoll = 100 * time.Millisecond
)

// MaxWaitsPerSession bounds the waits one session has in flight; the next
// is answered at once with busy (docs/decisions.md, Waits). A wait holds a
// whole read of its window for as long as it waits, up to 30 s (some
// 140 KB for 400 elements, nearly 2 MB at the zoom budget's 5,000): 600
// waits in flight from one client took a daemon to 612 MB. A model waits
// for one thing, or a few at once (a dialog or an error, whichever comes);
// 16 is well above that and keeps one session's waits to a few megabytes
// (30 at the budget).
const MaxWaitsPerSession = 16

// waitSlots counts a session's waits in flight.
type waitSlots struct {
	mu sync.Mutex
	n  int
}

// take claims one of the session's MaxWaitsPerSession slots, or answers
// busy; release gives it back when the wait ends, however it ends.
func (w *waitSlots) take() (release func(), err *Error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n >= MaxWaitsPerSession {
		return nil, Errf(CodeBusy, "%d waits are already in flight in this session; let one end (met, timed out or cancelled), then call again", MaxWaitsPerSession)
	}
	w.n++
	return func() {
		w.mu.Lock()
		w.n--
		w.mu.Unlock()
	}, nil
}

// ChangeNotifier blocks until an app reports a change, so that a wait
// wakes on the report itself rather than on a timer.
type ChangeNotifier interface {
	// WaitChange waits until window w's app has reported a change after
	// mark, at most max. changed is false when max ran out first; an error
	// means the backend can no longer tell (or ctx ended).
	WaitChange(ctx context.Context, w WindowID, mark ChangeMark, max time.Duration) (changed bool, err error)
}

// Condition kinds.
const (
	condAppears    = "appears"
	condDisappears = "disappears"
	condText       = "text"
	condTitle      = "title"
)

// waitCondition is wait_for's decoded condition.
type waitCondition struct {
	kind  string
	query elementQuery
	token *Token
	text  string // lower case
}

func parseCondition(a *Args) (waitCondition, *Error) {
	var c waitCondition
	ca, ok := a.Object("condition")
	if !ok {
		return c, Errf(CodeInvalidArguments, "condition is required: {kind, role?, label?, states?, element_token?, text?}")
	}
	kind, ok, err := ca.StrictEnum("kind", condAppears, condDisappears, condText, condTitle)
	if err != nil {
		return c, err
	}
	if !ok {
		return c, Errf(CodeInvalidArguments, "condition.kind must be appears, disappears, text or title")
	}
	c.kind = kind
	if c.query, err = parseQuery(ca); err != nil {
		return c, err
	}
	if c.token, err = ca.Token("element_token"); err != nil {
		return c, err
	}
	text, hasText, err := ca.String("text", 200)
	if err != nil {
		return c, err
	}
	c.text = strings.ToLower(text)
	switch {
	case kind == condAppears && (c.query.empty() || c.token != nil):
		return c, Errf(CodeInvalidArguments, "an appears condition needs role, label or states (no element_token)")
	case kind == condDisappears && c.query.empty() && c.token == nil:
		return c, Errf(CodeInvalidArguments, "a disappears condition needs element_token, role, label or states")
	case kind == condText && (!hasText || text == "" || (c.query.empty() && c.token == nil)):
		return c, Errf(CodeInvalidArguments, "a text condition needs text and an element (element_token, role, label or states)")
	case kind == condTitle && (!hasText || text == ""):
		return c, Errf(CodeInvalidArguments, "a title condition needs text")
	}
	return c, nil
}

func waitFor(ctx context.Context, c *Conn, a *Args) Result {
	target, err := parseTarget(a)
	if err != nil {
		return Failure(err)
	}
	cond, err := parseCondition(a)
	if err != nil {
		return Failure(err)
	}
	timeoutMs, err := a.IntOr("timeout_ms", 0, maxWaitTimeout.Milliseconds(), defaultWaitTimeout.Milliseconds())
	if err != nil {
		return Failure(err)
	}
	timeout := time.Duration(timeoutMs) * time.Millisecond
	s, err := c.sessionFor()
	if err != nil {
		return Failure(err)
	}
	release, err := s.waits.take()
	if err != nil {
		return Failure(err)
	}
	defer release()
	var w Window
	if cond.token != nil {
		if w, _, err = s.tokenWindow(ctx, *cond.token, target); err != nil {
			return Failure(err)
		}
	} else if w, err = s.resolveWindow(ctx, target); err != nil {
		return Failure(err)
	}
	if _, err = c.requireReadable(ctx, "wait_for", fmt.Sprintf("wait for a change in window %d", w.ID)); err != nil {
		return Failure(err)
	}
	start := time.Now()
	sn, pos, met, err := s.waitOn(ctx, w.ID, cond, start.Add(timeout))
	if err != nil {
		return Failure(err)
	}
	sn = s.keep(sn, changeStamp{mark: sn.mark, ok: sn.marked, at: sn.at})
	if t := sn.tree.Nodes[0].Name; t != "" {
		w.Title = t
	}
	res := WaitForResult{OK: true, Met: met, SnapshotID: sn.id, Window: windowInfo(w), Coordinates: w.FrameSpace, WaitedMs: time.Since(start).Milliseconds()}
	text := fmt.Sprintf("%s window=%d met=%v waited_ms=%d title=%s token=%s:N", sn.id, w.ID, met, res.WaitedMs, quote(res.Window.Title), sn.id)
	if pos >= 0 {
		if err := sn.fill(ctx, c.d, []int{pos}); err != nil {
			return Failure(err)
		}
		row := foundRow(sn, pos, w.Frame)
		res.Element = &row
		text += "\n" + strings.TrimRight(foundText([]FoundRow{row}), "\n")
	}
	return Result{Structured: &res, Text: text}
}

// waitOn reads the window, then after each change its app reports, until
// the condition holds or the deadline passes. After the first read, which
// is checked whole, each batch of reports is followed by reading and
// checking only what it names (waitreports.go). It returns the last read
// as an unkept snapshot (the caller keeps the one it answers with, so a
// long wait does not push the model's own snapshots out of the store).
// Cancelling ctx ends the wait with app_not_responding, as a cancelled
// settle does.
func (s *Session) waitOn(ctx context.Context, w WindowID, cond waitCondition, deadline time.Time) (*snapshot, int, bool, *Error) {
	// Listen first, so a change between the read and the wait is heard.
	s.settleMark(ctx, w)
	cur, err := s.draftRead(ctx, w)
	if err != nil {
		return nil, -1, false, err
	}
	f := followFrom(s, cur)
	chk := waitCheck{cond: cond}
	met, pos, cerr := chk.all(ctx, s.d, cur)
	for {
		if cerr != nil {
			return nil, -1, false, cerr
		}
		if met {
			return cur, pos, true, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return cur, -1, false, nil
		}
		changed, werr := s.waitChange(ctx, cur, left)
		if werr != nil {
			return nil, -1, false, werr
		}
		if !changed {
			continue
		}
		rr, rerr := f.next(ctx)
		if rerr != nil {
			return nil, -1, false, rerr
		}
		cur = rr.sn
		if rr.whole {
			met, pos, cerr = chk.all(ctx, s.d, cur)
		} else {
			met, pos, cerr = chk.changed(ctx, s.d, cur, rr)
		}
	}
}

// waitChange waits for the next change after cur's read, at most max: on
// the backend's wake-up when the read is marked, else (no reports for it)
// for the poll interval, after which the window is read again.
func (s *Session) waitChange(ctx context.Context, cur *snapshot, max time.Duration) (bool, *Error) {
	cancelled := func() *Error { return Errf(CodeAppNotResponding, "the call was cancelled while waiting") }
	if cur.marked {
		changed, err := s.d.backend.WaitChange(ctx, cur.window, cur.mark, max)
		if ctx.Err() != nil {
			return false, cancelled()
		}
		if err == nil {
			return changed, nil
		}
		// The backend cannot tell any more: read again, and the next wait
		// polls (the new read is not marked).
		return true, nil
	}
	select {
	case <-ctx.Done():
		return false, cancelled()
	case <-time.After(min(waitPoll, max)):
		return true, nil
	}
}

// draftRead reads the window whole, as an unkept snapshot.
func (s *Session) draftRead(ctx context.Context, w WindowID) (*snapshot, *Error) {
	m := s.d.markNow(w)
	t, err := s.d.readTree(ctx, w)
	if err != nil {
		return nil, err
	}
	rows := s.d.rows.number(t)
	pos := make(map[int]int, len(rows))
	for i, n := range rows {
		pos[n] = i
	}
	return &snapshot{window: w, structure: structureOf(t), tree: t, rows: rows, pos: pos, mark: m.mark, marked: m.ok, at: m.at}, nil
}
