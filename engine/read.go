package engine

import (
	"context"
	"fmt"
	"strings"
)

// Read limits (docs/contract.md#reads, docs/contract.md#skeleton).
const (
	defaultMaxElements   = 250
	maxMaxElements       = 5000
	defaultMaxDepth      = 25
	maxMaxDepth          = 200
	defaultSkeletonRows  = 60
	maxSkeletonRows      = 200
	defaultSkeletonDepth = 4
	labelMax             = 80
	valueMax             = 200
	titleMax             = 120
	nameMax              = 64 // an app's or a host's name
	rootTextMax          = 64 << 10
)

// readTree reads a window's whole tree within the zoom budget and the call
// bound: its structure only (the details are filled later for what is
// shown).
func (d *Driver) readTree(ctx context.Context, w WindowID) (*Tree, *Error) {
	cctx, cancel := d.callBound(ctx)
	defer cancel()
	t, err := d.backend.ReadStructure(cctx, w, d.opts.ZoomBudget)
	if err != nil {
		return nil, AsError(inBound(cctx, err))
	}
	if t == nil || len(t.Nodes) == 0 {
		return nil, Errf(CodeWindowGone, "window %d has no accessible tree", w)
	}
	t.Window = w
	return t, nil
}

// fillDetails reads the details of the nodes at positions of a read, the
// ones not read yet.
func (d *Driver) fillDetails(ctx context.Context, t *Tree, positions []int) *Error {
	var nodes []*Node
	for _, p := range positions {
		if p >= 0 && p < len(t.Nodes) && !t.Nodes[p].Detailed {
			nodes = append(nodes, &t.Nodes[p])
		}
	}
	if len(nodes) == 0 {
		return nil
	}
	cctx, cancel := d.callBound(ctx)
	defer cancel()
	if err := d.backend.ReadDetails(cctx, t.Window, nodes); err != nil {
		return AsError(inBound(cctx, err))
	}
	return nil
}

// securePositions lists a read's secure nodes (their frames are blacked out
// of screenshots).
func securePositions(t *Tree) []int {
	var out []int
	for i := range t.Nodes {
		if t.Nodes[i].Secure {
			out = append(out, i)
		}
	}
	return out
}

// snap reads a window and records the read as a snapshot.
func (s *Session) snap(ctx context.Context, w WindowID) (*snapshot, *Error) {
	m := s.d.markNow(w)
	t, err := s.d.readTree(ctx, w)
	if err != nil {
		return nil, err
	}
	return s.record(t, m), nil
}

func (s *Session) record(t *Tree, m changeStamp) *snapshot {
	rows := s.d.rows.number(t)
	pos := make(map[int]int, len(rows))
	for i, n := range rows {
		pos[n] = i
	}
	return s.keep(&snapshot{window: t.Window, structure: structureOf(t), tree: t, rows: rows, pos: pos}, m)
}

// keep stamps a snapshot with the session's epoch and the read's change
// mark, and stores it.
func (s *Session) keep(sn *snapshot, m changeStamp) *snapshot {
	sn.session = s
	s.mu.Lock()
	sn.epoch = s.epoch
	s.mu.Unlock()
	sn.mark, sn.marked, sn.at = m.mark, m.ok, m.at
	s.snaps.add(sn)
	return sn
}

// requireReadable is the gate every read passes: a session, a lease, and
// the host's approval when it approves reads one by one.
func (c *Conn) requireReadable(ctx context.Context, tool, desc string) (*Session, *Error) {
	s, err := c.sessionFor()
	if err != nil {
		return nil, err
	}
	if err := s.checkLease(); err != nil {
		return nil, err
	}
	if h := c.d.host(); h != nil && h.Policy().ApproveReads {
		if err := h.Approve(ctx, ApprovalRequest{Session: s.id, Tool: tool, Description: desc}); err != nil {
			return nil, AsError(err)
		}
	}
	return s, nil
}

func listWindows(ctx context.Context, c *Conn, a *Args) Result {
	filter, _, ferr := a.String("app", 200)
	if ferr != nil {
		return Failure(ferr)
	}
	// Without a live grant (none yet, ended, revoked or lapsed) the list
	// shows app names and pids only.
	s, serr := c.sessionFor()
	if serr == nil && s.checkLease() != nil {
		s = nil
	}
	if serr != nil {
		s = nil
	}
	if s != nil {
		if h := c.d.host(); h != nil && h.Policy().ApproveReads {
			if err := h.Approve(ctx, ApprovalRequest{Session: s.id, Tool: "list_windows", Description: "list windows"}); err != nil {
				return Failure(AsError(err))
			}
		}
	}
	wins, _, err := c.d.windows(ctx)
	if err != nil {
		return Failure(err)
	}
	if filter != "" {
		wins = matchApp(wins, filter)
	}
	res := ListWindowsResult{OK: true, Session: s != nil, Windows: []WindowRow{}}
	var b strings.Builder
	seen := map[int]bool{}
	for _, w := range wins {
		app := shownName(w.App)
		if s == nil || !s.isApproved(w.Pid) {
			// Outside a grant only the app's name and pid are shown.
			if seen[w.Pid] {
				continue
			}
			seen[w.Pid] = true
			row := WindowRow{Pid: w.Pid, App: app}
			if s != nil {
				row.Approved = boolp(false)
			}
			res.Windows = append(res.Windows, row)
			fmt.Fprintf(&b, "%s pid=%d%s\n", quote(app), w.Pid, map[bool]string{true: " approved=false", false: ""}[s != nil])
			continue
		}
		fr := w.Frame
		title := shownTitle(w.Title)
		row := WindowRow{WindowID: uint64(w.ID), Pid: w.Pid, App: app, Title: title,
			Focused: boolp(w.Focused), OnScreen: boolp(w.OnScreen), Approved: boolp(true)}
		place := ""
		if w.FrameSpace == ScreenSpace {
			// A window's place and stacking are shown only when they are
			// known, never made up (docs/contract.md#frame-coordinates).
			row.Frame, row.Stacking = &fr, intp(w.Stacking)
			place = fmt.Sprintf(" %dx%d+%d+%d stack=%d", fr.W, fr.H, fr.X, fr.Y, w.Stacking)
		}
		res.Windows = append(res.Windows, row)
		fmt.Fprintf(&b, "window=%d %s pid=%d %s%s%s\n", w.ID, quote(app), w.Pid, quote(title),
			place, map[bool]string{true: " focused", false: ""}[w.Focused])
	}
	if len(res.Windows) == 0 {
		b.WriteString("no windows\n")
	}
	return Result{Structured: res, Text: strings.TrimRight(b.String(), "\n")}
}

// readArgs are get_window_state's decoded arguments.
type readArgs struct {
	target      targetArgs
	skeleton    bool
	root        *Token
	maxElements int
	maxDepth    int
	screenshot  bool
}

func parseReadArgs(a *Args) (readArgs, *Error) {
	var r readArgs
	var err *Error
	if r.target, err = parseTarget(a); err != nil {
		return r, err
	}
	r.skeleton = a.Bool("skeleton", false)
	r.screenshot = a.Bool("include_screenshot", false)
	if r.root, err = a.Token("root"); err != nil {
		return r, err
	}
	maxRows, rowsDefault, depthDefault := int64(maxMaxElements), int64(defaultMaxElements), int64(defaultMaxDepth)
	if r.skeleton {
		maxRows, rowsDefault, depthDefault = maxSkeletonRows, defaultSkeletonRows, defaultSkeletonDepth
	}
	rows, err := a.IntOr("max_elements", 1, maxRows, rowsDefault)
	if err != nil {
		return r, err
	}
	depth, err := a.IntOr("max_depth", 1, maxMaxDepth, depthDefault)
	if err != nil {
		return r, err
	}
	r.maxElements, r.maxDepth = int(rows), int(depth)
	return r, nil
}

func getWindowState(ctx context.Context, c *Conn, a *Args) Result {
	ra, perr := parseReadArgs(a)
	if perr != nil {
		return Failure(perr)
	}
	s, err := c.sessionFor()
	if err != nil {
		return Failure(err)
	}
	var w Window
	if ra.root != nil {
		// A root token names its window, and follows the rules of every
		// token: this live session's, and any target must agree with it.
		if w, _, err = s.tokenWindow(ctx, *ra.root, ra.target); err != nil {
			return Failure(err)
		}
	} else if w, err = s.resolveWindow(ctx, ra.target); err != nil {
		return Failure(err)
	}
	if _, err = c.requireReadable(ctx, "get_window_state", fmt.Sprintf("read window %d", w.ID)); err != nil {
		return Failure(err)
	}
	sn, kept, err := s.readWindow(ctx, w.ID)
	if err != nil {
		return Failure(err)
	}
	rootPos := 0
	if ra.root != nil {
		if rootPos, err = s.resolveToken(*ra.root, sn); err != nil {
			return Failure(err)
		}
	}
	res := WindowStateResult{OK: true, SnapshotID: sn.id, SnapshotKept: kept, Window: windowInfo(w), Coordinates: w.FrameSpace, Skeleton: ra.skeleton}
	if ra.root != nil {
		res.Root = ra.root.String()
	}
	var text string
	need := []int{}
	if ra.skeleton {
		need, _ = skeletonPositions(sn, rootPos, ra.maxElements, ra.maxDepth)
	} else {
		need, _ = fullPositions(sn, rootPos, ra.maxElements, ra.maxDepth)
	}
	if ra.screenshot {
		need = append(need, securePositions(sn.tree)...)
	}
	if err := sn.details(ctx, c.d, kept, need); err != nil {
		return Failure(err)
	}
	if ra.skeleton {
		rows, trunc := skeletonRows(sn, rootPos, ra.maxElements, ra.maxDepth, w.Frame)
		res.Elements, res.ElementCount, res.Truncated = rows, len(rows), trunc || sn.tree.Truncated
		text = skeletonText(rows)
	} else {
		rows, trunc := elementRows(sn, rootPos, ra.maxElements, ra.maxDepth, w.Frame)
		res.Elements, res.ElementCount, res.Truncated = rows, len(rows), trunc || sn.tree.Truncated
		text = rowsText(rows)
		if ra.root != nil {
			s.attachRootText(ctx, sn, rootPos, &res)
		}
	}
	res.TreeText = treeHeader(sn.id, w, res.ElementCount, len(sn.tree.Nodes), res.Truncated) + text
	res.AccessibilityHint = c.d.accessibilityHint(ctx, sn.tree)
	out := Result{Structured: &res}
	if ra.screenshot {
		out.Image, res.Screenshot, res.ScreenshotError = s.reportedScreenshot(ctx, sn, w, res.AccessibilityHint, !ra.skeleton, res.Elements)
	}
	out.Text = res.TreeText
	if res.Text != nil {
		out.Text += "\n--- text ---\n" + *res.Text
	}
	if res.AccessibilityHint != nil {
		out.Text += hintText(res.AccessibilityHint)
	}
	return out
}

// attachRootText adds a text element's whole text to a drill-down read,
// with credential-looking spans redacted; never for secure fields. A
// document without a Text interface of its own gives the text of its
// paragraphs, paged through when the backend can (doctext.go).
func (s *Session) attachRootText(ctx context.Context, sn *snapshot, pos int, res *WindowStateResult) {
	n := &sn.tree.Nodes[pos]
	if n.Secure || !isTextRole(n.Role) {
		return
	}
	if !n.Text {
		if text, trunc, ok := s.documentText(ctx, sn, pos); ok {
			text = redact(text)
			res.Text, res.TextTruncated = &text, trunc
		}
		return
	}
	cctx, cancel := s.d.callBound(ctx)
	defer cancel()
	text, trunc, err := s.d.backend.ReadText(cctx, ElementRef{Window: sn.window, ID: n.ID}, rootTextMax)
	if err != nil {
		return
	}
	text = redact(text)
	res.Text = &text
	res.TextTruncated = trunc
}

// isTextRole reports whether a drill-down on an element of this role
// returns its whole text. A table cell is one: a spreadsheet's cell holds
// text of any length, and its row's value is cut at the contract's bound.
func isTextRole(role string) bool {
	switch role {
	case "document_text", "document_frame", "document_web", "document_email", "document_presentation",
		"document_spreadsheet", "text", "paragraph", "terminal", "entry", "editbar", "heading", "static",
		"label", "article", "section", "block_quote", "comment", "note", "table_cell":
		return true
	}
	return strings.HasPrefix(role, "document")
}

func windowInfo(w Window) WindowInfo {
	return WindowInfo{WindowID: uint64(w.ID), Pid: w.Pid, App: shownName(w.App), Title: shownTitle(w.Title), Frame: w.Frame}
}

// treeHeader is tree_text's first line: the snapshot and the window, so the
// text alone is enough to form tokens.
func treeHeader(snap string, w Window, shown, total int, truncated bool) string {
	t := ""
	if truncated {
		t = " truncated"
	}
	return fmt.Sprintf("%s window=%d %s %s pid=%d rows=%d/%d%s token=%s:N\n",
		snap, w.ID, quote(shownName(w.App)), quote(shownTitle(w.Title)), w.Pid, shown, total, t, snap)
}

func boolp(b bool) *bool { return &b }
func intp(i int) *int    { return &i }
