package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/nish-driver/nish-driver/engine/audit"
)

// The act pipeline, the same for every act tool:
//
//	session → not paused → lease → arguments → input mode (requires_takeover
//	before anything is sent) → one act at a time (busy) → act bucket
//	(rate_limited) → target window and app identity → host approval →
//	fresh read and token check → element checks → the act itself →
//	settle, diff, effect → observe → audit.
//
// Synthetic acts pass the hand-back check again before every event they
// send (takeover.go's synth).

// Path is how an act reached the app; its value is the wire string.
type Path string

// Paths on the wire.
const (
	PathAction    Path = "atspi_action"
	PathText      Path = "atspi_text"
	PathValue     Path = "atspi_value"
	PathXTest     Path = "xtest"
	PathClipboard Path = "clipboard"
	// PathWindowKeys: key events sent to the app's window only, for an
	// app that takes no text through accessibility (windowkeys.go).
	PathWindowKeys Path = "window_keys"
)

// Effect is what an act did, as far as the driver can tell; its value is
// the wire string.
type Effect string

// Effects on the wire.
const (
	EffectConfirmed Effect = "confirmed"
	EffectChanged   Effect = "changed"
	EffectNoChange  Effect = "no_change"
	EffectRefused   Effect = "refused"
	EffectStopped   Effect = "stopped"
)

// act is one act call in flight.
type act struct {
	c       *Conn
	s       *Session
	tool    string
	a       *Args
	target  targetArgs
	token   *Token
	observe *ObserveSpec
	synth   bool // needs takeover: synthetic input

	win  Window
	exe  string
	pre  *snapshot
	pos  int // the token's element in pre; -1 without a token
	node *Node

	// what the act did, filled by the tool's perform step
	path       Path
	action     string
	tookCursor bool
	// aimed: synthetic pointer input went to an element's frame (by
	// token); the settled read is checked for where it landed.
	aimed    bool
	scrolled bool // the element was scrolled into view before the act
	readback string
	// readBackAfter, when set, reads the written value back once the app
	// has settled (set_value): an app that applies a write on its own
	// turn (the browsers) would read back the old value at once.
	readBackAfter func(context.Context) string
	// landedAfter, when set, reads whether the typed text is in the field
	// once the app has settled (type_text); landed is its answer, or the
	// window_keys path's own check that the field holds what was sent. A
	// text that landed is confirmed, whatever the read shows of it.
	landedAfter func(context.Context) bool
	landed      bool
	// keysAt is where keys typed in a takeover go in the focused field,
	// when its app reports the caret (checkFocusedField).
	keysAt  *textPlace
	typed   *int
	confirm func(post *snapshot) bool // the intended change, when it can be told

	mark   ChangeMark // the app's change reports before the act
	marked bool
	acted  time.Time // when the act itself began, in real time like the app's change reports it is compared with

	trace ActTrace // where the call's time went (Options.ActTrace)
	begun time.Time
}

// actSpec is what differs between act tools: it reads the tool's own
// arguments, sets x.synth when the act needs synthetic input (takeover), and
// returns the act itself, run later once every check has passed. State
// lives in the returned closure, one per call.
type actSpec func(x *act) (perform func(ctx context.Context) *Error, err *Error)

// actSession is the gate every act passes first: a live session, not
// paused by the person (refused before anything is sent), a valid lease.
func (c *Conn) actSession() (*Session, *Error) {
	s, err := c.sessionFor()
	if err != nil {
		return nil, err
	}
	if paused, reason := s.isPaused(); paused {
		return nil, tookOver(reason, EffectRefused)
	}
	if err := s.checkLease(); err != nil {
		return nil, err
	}
	return s, nil
}

// runAct runs one act tool (its table row's spec) through the pipeline.
func runAct(ctx context.Context, c *Conn, tool string, spec actSpec, a *Args) Result {
	s, err := c.actSession()
	if err != nil {
		return Failure(err)
	}
	x := &act{c: c, s: s, tool: tool, a: a, pos: -1, begun: time.Now()}
	x.trace.Tool = tool
	if x.target, err = parseTarget(a); err != nil {
		return Failure(err)
	}
	if x.token, err = a.Token("element_token"); err != nil {
		return Failure(err)
	}
	if obs, ok := a.Object("observe"); ok {
		x.observe = &ObserveSpec{Tree: obs.Bool("tree", false), Screenshot: obs.Bool("screenshot", false)}
	}
	perform, err := spec(x)
	if err != nil {
		return Failure(err)
	}
	if x.synth && !s.inTakeover() {
		return Failure(Errf(CodeRequiresTakeover, "%s needs synthetic input, which needs a takeover session", tool))
	}
	if !s.acting.TryLock() {
		return Failure(Errf(CodeBusy, "another act of this session is running"))
	}
	defer s.acting.Unlock()
	if !s.bucket.take() {
		return Failure(Errf(CodeRateLimited, "too many acts in a short time"))
	}
	resolveStart := time.Now()
	if err := x.resolve(ctx); err != nil {
		return x.fail(err)
	}
	if err := x.approve(ctx); err != nil {
		return x.fail(err)
	}
	x.trace.Resolve = time.Since(resolveStart)
	readStart := time.Now()
	if x.pre = s.reusable(x.win.ID, x.token); x.pre != nil {
		x.trace.PreReadReused = true
	} else if x.pre, err = s.snap(ctx, x.win.ID); err != nil {
		return x.fail(err)
	} else {
		// A fresh read holds structure only; the diff compares values
		// where the read before had them (beforeRows).
		_ = x.pre.fill(ctx, c.d, beforeRows(x.pre))
	}
	if x.token != nil {
		if x.pos, err = s.resolveToken(*x.token, x.pre); err != nil {
			return x.fail(err)
		}
		if err := x.pre.fill(ctx, c.d, []int{x.pos}); err != nil {
			return x.fail(err)
		}
		x.node = &x.pre.tree.Nodes[x.pos]
		if insensitive(x.node) {
			return x.fail(Errf(CodeElementDisabled, "element %d is disabled", x.token.Index))
		}
		if !x.node.HasState("showing") && !(x.tool == "click" && optionOfClosedChoice(x.pre.tree, x.pos)) {
			if err := x.scrollIntoView(ctx); err != nil {
				return x.fail(err)
			}
		}
	}
	x.trace.PreRead = time.Since(readStart)
	if paused, reason := s.isPaused(); paused {
		return x.fail(tookOver(reason, EffectRefused))
	}
	x.mark, x.marked = s.settleMark(ctx, x.win.ID)
	x.acted = time.Now()
	err = perform(ctx)
	x.trace.Perform = time.Since(x.acted)
	if err != nil {
		return x.fail(err)
	}
	return x.finish(ctx)
}

// resolve finds the window: from the token's snapshot (a target given with
// the token must agree with it), or from the target.
func (x *act) resolve(ctx context.Context) *Error {
	var w Window
	var err *Error
	if x.token != nil {
		if w, _, err = x.s.tokenWindow(ctx, *x.token, x.target); err != nil {
			return err
		}
		x.target = targetArgs{windowID: int64(w.ID), hasWindowID: true}
	} else if w, err = x.s.resolveWindow(ctx, x.target); err != nil {
		return err
	}
	x.win = w
	x.s.mu.Lock()
	if app, ok := x.s.apps[w.Pid]; ok {
		x.exe = filepath.Base(app.identity.Exe)
	}
	x.s.mu.Unlock()
	return nil
}

// approve asks the host, when there is one: acts need approval unless
// pre-approved, and an act that observes is a read too.
func (x *act) approve(ctx context.Context) *Error {
	h := x.c.d.host()
	if h == nil {
		return nil
	}
	pol := h.Policy()
	observes := x.observe != nil && (x.observe.Tree || x.observe.Screenshot)
	if pol.PreApproved[x.tool] && !(observes && pol.ApproveReads) {
		return nil
	}
	desc := fmt.Sprintf("%s in window %d", x.tool, x.win.ID)
	if x.token != nil {
		desc += fmt.Sprintf(" on element %d", x.token.Index)
	}
	req := ApprovalRequest{Session: x.s.id, Tool: x.tool, Description: desc}
	if observes {
		req.Observe = x.observe
	}
	if err := h.Approve(ctx, req); err != nil {
		return AsError(err)
	}
	return nil
}

// fail records a refused or failed act and renders the envelope.
func (x *act) fail(err *Error) Result {
	if err.Code == CodeUserTookOver && x.typed != nil && err.TypedCharacters == nil {
		err.TypedCharacters = x.typed
	}
	x.c.d.audit(audit.Record{Event: "act", Session: x.s.id, Tool: x.tool, Exe: x.exe, WindowID: uint64(x.win.ID),
		Outcome: string(err.Code), Path: string(x.path), Effect: string(err.Effect)})
	return Failure(err)
}

// finish settles, diffs, decides the effect, observes and audits.
func (x *act) finish(ctx context.Context) Result {
	res := ActResult{OK: true, Path: x.path, TookCursor: x.tookCursor, Action: x.action, Readback: x.readback, TypedCharacters: x.typed,
		ScrolledIntoView: x.scrolled}
	post, settle, tm, serr := x.s.settle(ctx, x.pre, x.mark, x.marked, x.acted, x.prepareSettled(ctx))
	if x.readBackAfter != nil {
		x.readback = x.readBackAfter(ctx)
		res.Readback = x.readback
	}
	if x.landedAfter != nil {
		x.landed = x.landedAfter(ctx)
	}
	res.Settle = &settle
	x.trace.Quiet, x.trace.PostRead, x.trace.PostReadKind, x.trace.PostReadEarly = tm.quiet, tm.read, tm.readKind, tm.early
	if serr == nil {
		res.SnapshotID = post.id
		res.Diff = diffSnapshots(x.pre, post)
	}
	changed := serr != nil || res.Diff == nil || !res.Diff.empty()
	switch {
	case x.readback == ReadbackMismatch || x.readback == ReadbackUnverified:
		res.Effect = EffectNoChange
		if changed {
			res.Effect = EffectChanged
		}
	case x.readback == ReadbackMatch, x.landed:
		res.Effect = EffectConfirmed
	case post != nil && x.confirm != nil && x.confirm(post):
		res.Effect = EffectConfirmed
	case changed:
		res.Effect = EffectChanged
	default:
		res.Effect = EffectNoChange
	}
	if serr == nil && x.aimed && res.Effect != EffectConfirmed {
		// The diff must be about the target: marks of the click on
		// other elements and none on the target mean it landed there.
		if others := landedElsewhere(x.pre, post, x.pos); len(others) > 0 {
			res.Effect = EffectNoChange
			res.LandedElsewhere = others
		}
	}
	res.Verified = res.Effect == EffectConfirmed
	if x.observe != nil && (x.observe.Tree || x.observe.Screenshot) {
		res.Observe = x.s.observe(ctx, x.win, post, serr, *x.observe)
	}
	x.c.d.audit(audit.Record{Event: "act", Session: x.s.id, Tool: x.tool, Exe: x.exe, WindowID: uint64(x.win.ID),
		Outcome: "ok", Path: string(res.Path), Effect: string(res.Effect)})
	out := Result{Structured: &res, Text: actText(&res)}
	if res.Observe != nil {
		out.Image = res.Observe.image
		if res.Observe.TreeText != "" {
			out.Text += "\n" + res.Observe.TreeText
		}
	}
	if f := x.c.d.opts.ActTrace; f != nil {
		x.trace.Total = time.Since(x.begun)
		f(x.trace)
	}
	return out
}

// prepareSettled reads in a settled read what the act's diff and effect
// need (settle calls it on the read it returns, or on an early patch
// before it is kept).
func (x *act) prepareSettled(ctx context.Context) func(post *snapshot) {
	return func(post *snapshot) {
		// A whole read after the act holds structure only, and so do the
		// subtrees a patched read read again: read the values the read
		// before held, so the diff shows what changed in them (a page's
		// status line, a label's text) and not just the acted-on element.
		// The elements a patch read one by one have theirs already.
		x.s.fillValuesLike(ctx, post, x.pre)
		if x.token == nil {
			return
		}
		// The acted-on element's details tell whether the act did what it
		// meant to (and show its new value in the diff).
		if p, ok := post.pos[x.token.Index]; ok {
			_ = post.fill(ctx, x.c.d, []int{p})
		}
	}
}

// actText is the act result's compact text.
func actText(r *ActResult) string {
	t := fmt.Sprintf("ok effect=%s path=%s", r.Effect, r.Path)
	if r.Action != "" {
		t += " action=" + r.Action
	}
	if r.ScrolledIntoView {
		t += " scrolled_into_view"
	}
	if len(r.LandedElsewhere) > 0 {
		t += " landed_elsewhere=" + joinInts(r.LandedElsewhere)
	}
	if r.Readback != "" {
		t += " readback=" + r.Readback
	}
	if r.SnapshotID != "" {
		t += " snapshot=" + r.SnapshotID
	}
	if r.Diff != nil {
		t += fmt.Sprintf(" diff=+%d -%d ~%d", len(r.Diff.Added), len(r.Diff.Removed), len(r.Diff.Changed))
	}
	if r.Settle != nil {
		t += fmt.Sprintf(" settle=%dms", r.Settle.Ms)
		if !r.Settle.Settled {
			t += "(not settled)"
		}
	}
	return t
}

// Readback results on the wire (docs/contract.md#readback).
const (
	ReadbackMatch      = "match"
	ReadbackMismatch   = "mismatch"
	ReadbackUnverified = "unverified"
)

// maxShownBefore bounds the rows on screen whose values the read before an
// act holds beyond those a default read shows.
const maxShownBefore = 1000

// beforeRows are the rows whose details a fresh read before an act reads,
// for the diff to compare values in: those a default read shows (as a
// reused read of the model's would have them), and the rows showing on
// screen, where a person would see the act's effect (a status line far
// down a long page, after the view scrolled there).
func beforeRows(sn *snapshot) []int {
	rows, _ := fullPositions(sn, 0, defaultMaxElements, defaultMaxDepth)
	in := make(map[int]bool, len(rows))
	for _, p := range rows {
		in[p] = true
	}
	extra := 0
	for i := range sn.tree.Nodes {
		if extra >= maxShownBefore {
			break
		}
		if !in[i] && sn.tree.Nodes[i].HasState("showing") {
			rows = append(rows, i)
			extra++
		}
	}
	return rows
}

// joinInts writes element indexes as "3,7".
func joinInts(v []int) string {
	out := ""
	for i, n := range v {
		if i > 0 {
			out += ","
		}
		out += fmt.Sprint(n)
	}
	return out
}
